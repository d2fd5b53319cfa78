// Each thread adds the block's total (block_sum, from the included header) to its right
// neighbour's element, passed through shared memory with no barrier between the write and the
// read. The block's last barrier is in the header: the report says so, rather than name a line
// of the header as if it were this file's. With -DPLANTED_FIXED a barrier orders the two.
#include "planted.cuh"

#include "barrier_in_header.cuh"

constexpr unsigned kThreads = 128;

__global__ void add_total_to_neighbour(const int* in, int* out) {
  __shared__ int partial[kThreads];
  __shared__ int stage[kThreads];
  const unsigned i = threadIdx.x;
  stage[i] = 0;  // before block_sum's barriers: a neighbour read too early sees 0, not garbage
  const int total = block_sum<kThreads>(partial, in[i]);
  stage[i] = in[i];  // expect: race
#ifdef PLANTED_FIXED
  __syncthreads();
#endif
  out[i] = total + stage[(i + 1) % kThreads];  // expect: race
}

int main() {
  const std::vector<int> input = planted::test_input(kThreads);
  const planted::DeviceBuffer<int> in(input), out(kThreads);
  add_total_to_neighbour<<<1, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  int total = 0;
  for (int v : input) total += v;
  std::vector<int> expected(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) expected[i] = total + input[(i + 1) % kThreads];
  return planted::compare(expected, out.to_host());
}
