// A kernel that races, then never ends: threads exchange values through global memory with
// nothing ordering them (as in global_race_in_block.cu), then thread 0 loops forever, storing
// as it goes (so it is not taken for a deadlock), as a loop whose bound was read out of bounds
// may. A time limit stops the program; what the kernel found must still be printed, although
// its phase never ended. With -DPLANTED_FIXED a barrier orders the exchange, and the stopped
// run says only that it was stopped. With the argument `second-launch`, the racing kernel first
// runs to its end without the loop (its race printed then), and the stop comes in a second
// launch that finds nothing new: the stop notice must not read as "nothing found".
#include <string>

#include "planted.cuh"

constexpr unsigned kThreads = 64;

__global__ void race_then_loop(const int* in, int* scratch, int* out, bool loop) {
  __shared__ int iterations;
  const unsigned i = threadIdx.x;
  scratch[i] = in[i];  // expect: race
#ifdef PLANTED_FIXED
  __syncthreads();
#endif
  out[i] = scratch[(i + 1) % kThreads];  // expect: race
  if (i == 0 && loop) planted::store_forever(&out[0], &iterations);
}

int main(int argc, char** argv) {
  const std::vector<int> input = planted::test_input(kThreads);
  const planted::DeviceBuffer<int> in(input), scratch(kThreads), out(kThreads);
  if (argc > 1 && std::string(argv[1]) == "second-launch") {
    race_then_loop<<<1, kThreads>>>(in.get(), scratch.get(), out.get(), false);
    planted::kernels_succeeded();
  }
  race_then_loop<<<1, kThreads>>>(in.get(), scratch.get(), out.get(), true);
  planted::kernels_succeeded();
  return planted::kWrongResult;  // never reached: the kernel does not end
}
