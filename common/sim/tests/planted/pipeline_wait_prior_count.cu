// A double-buffered loop: while a block works on one tile in shared memory, the next tile's
// asynchronous copies fill the other buffer. Every step commits one group (empty after the last
// tile), so __pipeline_wait_prior(1) leaves only the next tile's group in flight and completes the
// current one. Here the wait leaves two groups in flight, the current tile's among them, and the
// threads read a tile whose copy may not have landed: a race between the copy and the read. The
// fixed twin waits with the right count.
#include <cuda_pipeline.h>

#include "planted.cuh"

constexpr unsigned kThreads = 64, kTiles = 4;

// Each thread adds up, over the block's tiles, its neighbour's element of each tile.
__global__ void sum_neighbours_over_tiles(const int* in, int* out) {
  __shared__ alignas(16) int tile[2][kThreads];
  const unsigned first = blockIdx.x * kTiles * kThreads;
  int total = 0;
  for (unsigned step = 0; step <= kTiles; ++step) {
    const int* next = &in[first + step * kThreads + threadIdx.x];
    if (step < kTiles) __pipeline_memcpy_async(&tile[step % 2][threadIdx.x], next, sizeof(int));  // expect: race
    __pipeline_commit();
    if (step == 0) continue;
#ifdef PLANTED_FIXED
    __pipeline_wait_prior(1);
#else
    __pipeline_wait_prior(2);
#endif
    __syncthreads();
    total += tile[(step - 1) % 2][(threadIdx.x + 1) % kThreads];  // expect: race
    __syncthreads();
  }
  __pipeline_wait_prior(0);
  out[blockIdx.x * kThreads + threadIdx.x] = total;
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kTiles * kThreads;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(kBlocks * kThreads);
  sum_neighbours_over_tiles<<<kBlocks, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kBlocks * kThreads, 0);
  for (unsigned b = 0; b < kBlocks; ++b)
    for (unsigned t = 0; t < kThreads; ++t)
      for (unsigned s = 0; s < kTiles; ++s)
        expected[b * kThreads + t] += input[(b * kTiles + s) * kThreads + (t + 1) % kThreads];
  return planted::compare(expected, out.to_host());
}
