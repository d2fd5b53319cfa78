// Each thread stages its element of a tile in shared memory with an asynchronous copy
// (__pipeline_memcpy_async), commits it as a group, and doubles it. Here the thread reads the
// staged element before __pipeline_wait_prior covers the copy's group, while the copy may not
// have landed: a race between the copy and the read. The fixed twin waits first.
#include <cuda_pipeline.h>

#include "planted.cuh"

constexpr unsigned kThreads = 64;

__global__ void double_in_blocks(const int* in, int* out) {
  __shared__ alignas(16) int tile[kThreads];
  const unsigned i = blockIdx.x * kThreads + threadIdx.x;
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[i], sizeof(int));  // expect: race
  __pipeline_commit();
#ifdef PLANTED_FIXED
  __pipeline_wait_prior(0);
  out[i] = 2 * tile[threadIdx.x];
#else
  out[i] = 2 * tile[threadIdx.x];  // expect: race
  __pipeline_wait_prior(0);
#endif
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kThreads;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  double_in_blocks<<<kBlocks, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = 2 * input[i];
  return planted::compare(expected, out.to_host());
}
