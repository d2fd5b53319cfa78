// Each thread stages its element of a tile with an asynchronous copy and waits for it; then each
// reads its neighbour's element. The wait makes the data visible to the issuing thread only:
// another thread sees it after a barrier that follows the wait. Here no __syncthreads() comes
// between, so the neighbour's read races with the copy. The fixed twin syncs the block.
#include <cuda_pipeline.h>

#include "planted.cuh"

constexpr unsigned kThreads = 64;

__global__ void rotate_in_blocks(const int* in, int* out) {
  __shared__ alignas(16) int tile[kThreads];
  const unsigned i = blockIdx.x * kThreads + threadIdx.x;
  tile[threadIdx.x] = 0;  // no garbage to read: what is at stake is the order alone
  __syncthreads();
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[i], sizeof(int));  // expect: race
  __pipeline_commit();
  __pipeline_wait_prior(0);
#ifdef PLANTED_FIXED
  __syncthreads();
#endif
  out[i] = tile[(threadIdx.x + 1) % kThreads];  // expect: race
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kThreads;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  rotate_in_blocks<<<kBlocks, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = input[i / kThreads * kThreads + (i % kThreads + 1) % kThreads];
  return planted::compare(expected, out.to_host());
}
