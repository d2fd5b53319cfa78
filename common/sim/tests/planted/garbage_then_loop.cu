// A kernel that reads shared memory no thread wrote, then never ends: only the even entries of
// `partial` are stored before the barrier, and every thread reads its odd neighbour's. Such a
// read is held to the launch's end, where the launch is run again with other garbage to learn
// whether the garbage reaches its results; a time limit stops the program first, and the read
// must still be printed, marked as not judged. With -DPLANTED_FIXED every entry is stored, and
// the stopped run says only that it was stopped.
#include "planted.cuh"

constexpr unsigned kThreads = 64;

__global__ void garbage_then_loop(const int* in, int* out) {
  __shared__ int partial[kThreads];
  __shared__ int iterations;
  const unsigned i = threadIdx.x;
#ifdef PLANTED_FIXED
  partial[i] = in[i];
#else
  if (i % 2 == 0) partial[i] = in[i];
#endif
  __syncthreads();
  out[i] = partial[i ^ 1];  // expect: uninitialized-read
  if (i == 0) planted::store_forever(&out[0], &iterations);
}

int main() {
  const std::vector<int> input = planted::test_input(kThreads);
  const planted::DeviceBuffer<int> in(input), out(kThreads);
  garbage_then_loop<<<1, kThreads>>>(in.get(), out.get());
  planted::kernels_succeeded();
  return planted::kWrongResult;  // never reached: the kernel does not end
}
