// Threads of one block exchange values through global memory: each writes its own element and
// reads its right neighbour's. Nothing orders the neighbour's write before the read; with
// -DPLANTED_FIXED a barrier does (a barrier orders global memory within a block too).
#include "planted.cuh"

constexpr unsigned kThreads = 128;

__global__ void add_right_neighbour(const int* in, int* scratch, int* out) {
  const unsigned i = threadIdx.x;
  scratch[i] = in[i];  // expect: race
#ifdef PLANTED_FIXED
  __syncthreads();
#endif
  out[i] = in[i] + scratch[(i + 1) % kThreads];  // expect: race
}

int main() {
  const std::vector<int> input = planted::test_input(kThreads);
  const planted::DeviceBuffer<int> in(input), scratch(kThreads), out(kThreads);
  add_right_neighbour<<<1, kThreads>>>(in.get(), scratch.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) expected[i] = input[i] + input[(i + 1) % kThreads];
  return planted::compare(expected, out.to_host());
}
