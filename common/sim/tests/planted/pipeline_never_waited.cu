// Each thread stages its element with an asynchronous copy, and after using the tile it issues
// one more copy that nothing reads. Here the threads exit without waiting for that last group:
// the copy may still write the block's shared memory after the block has ended and the memory
// went to another block. The fixed twin waits before it returns.
#include <cuda_pipeline.h>

#include "planted.cuh"

constexpr unsigned kThreads = 64;

__global__ void add_mirrored(const int* in, int* out) {
  __shared__ alignas(16) int tile[kThreads];
  const unsigned i = blockIdx.x * kThreads + threadIdx.x;
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[i], sizeof(int));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = tile[threadIdx.x] + tile[kThreads - 1 - threadIdx.x];
  __syncthreads();
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[i], sizeof(int));  // expect: api-misuse
  __pipeline_commit();
#ifdef PLANTED_FIXED
  __pipeline_wait_prior(0);
#endif
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kThreads;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  add_mirrored<<<kBlocks, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i)
    expected[i] = input[i] + input[i / kThreads * kThreads + kThreads - 1 - i % kThreads];
  return planted::compare(expected, out.to_host());
}
