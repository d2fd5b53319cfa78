// Threads past the end of the data return before the block's barrier. PTX counts exited
// threads as arrived, so the remaining threads pass the barrier and the result is correct;
// the simulator only warns, since CUDA C++ asks for barriers in uniform control flow.
#include "planted.cuh"

constexpr unsigned kThreads = 128;
constexpr unsigned kElements = 300;  // the last block has 44 live threads

// out[i] = in[i] + the first element of i's block.
__global__ void add_block_head(const int* in, int* out, unsigned n) {
  __shared__ int head;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (threadIdx.x == 0) head = in[i];
  __syncthreads();  // expect: barrier-after-exit
  out[i] = in[i] + head;
}

int main() {
  const std::vector<int> input = planted::test_input(kElements);
  const planted::DeviceBuffer<int> in(input), out(kElements);
  const unsigned blocks = (kElements + kThreads - 1) / kThreads;
  add_block_head<<<blocks, kThreads>>>(in.get(), out.get(), kElements);
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kElements);
  for (unsigned i = 0; i < kElements; ++i) expected[i] = input[i] + input[i / kThreads * kThreads];
  return planted::compare(expected, out.to_host());
}
