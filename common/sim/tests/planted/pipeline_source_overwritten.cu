// An in-place kernel: each thread stages its element of a tile with an asynchronous copy, then
// writes the tile's sum of neighbours back into the same global array. The copy reads its source
// at any moment until a wait covers its group; here the thread writes the source before that
// wait, so the copy may carry either value: a race between the copy and the write. The fixed
// twin waits first.
#include <cuda_pipeline.h>

#include "planted.cuh"

constexpr unsigned kThreads = 64;

__global__ void add_neighbour_in_place(int* data) {
  __shared__ alignas(16) int tile[kThreads];
  const unsigned i = blockIdx.x * kThreads + threadIdx.x;
  const int mine = data[i];
  __pipeline_memcpy_async(&tile[threadIdx.x], &data[i], sizeof(int));  // expect: race
  __pipeline_commit();
#ifdef PLANTED_FIXED
  __pipeline_wait_prior(0);
  __syncthreads();
  data[i] = mine + tile[(threadIdx.x + 1) % kThreads];
#else
  data[i] = 0;  // expect: race
  __pipeline_wait_prior(0);
  __syncthreads();
  data[i] = mine + tile[(threadIdx.x + 1) % kThreads];
#endif
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kThreads;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> data(input);
  add_neighbour_in_place<<<kBlocks, kThreads>>>(data.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i)
    expected[i] = input[i] + input[i / kThreads * kThreads + (i % kThreads + 1) % kThreads];
  return planted::compare(expected, data.to_host());
}
