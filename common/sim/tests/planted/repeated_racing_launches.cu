// A benchmark's habit with a kernel that has a bug: the same launch on the same data, again and
// again. The race is reported once, at the first run; the second run finds nothing it has not
// reported, so its effect is kept and the eight launches after it are replayed, not run: a
// kernel with a known bug launched a hundred times costs two runs, as a clean one does. With
// -DPLANTED_FIXED one thread writes the shared word, and the same eight launches are replayed.
#include <vector>

#include "planted.cuh"

constexpr unsigned kThreads = 128;
constexpr unsigned kBlocks = 8;
constexpr int kLaunches = 10;

// Adds the block's first element to each of its elements, through shared memory, where every
// thread writes it at once unless only one does.
__global__ void add_first_of_block(const int* in, int* out) {
  __shared__ int first;
  const unsigned i = blockIdx.x * kThreads + threadIdx.x;
#ifdef PLANTED_FIXED
  if (threadIdx.x == 0)
#endif
    first = in[blockIdx.x * kThreads];  // expect: race
  __syncthreads();
  out[i] = in[i] + first;
}

int main() {
  const std::vector<int> input = planted::test_input(kThreads * kBlocks);
  const planted::DeviceBuffer<int> in(input), out(kThreads * kBlocks);
  for (int launch = 0; launch < kLaunches; ++launch) add_first_of_block<<<kBlocks, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(input.size());
  for (std::size_t k = 0; k < input.size(); ++k) expected[k] = input[k] + input[k / kThreads * kThreads];
  return planted::compare(expected, out.to_host());
}
