// A double-buffered tiled reduction with each thread's own cuda::pipeline: every thread copies
// 16 bytes of each tile into a ring of two shared-memory stages (cuda::memcpy_async with
// cuda::aligned_size_t), waits for the oldest stage with consumer_wait(), and the block syncs
// before threads read each other's words of the stage. Clean: the simulator must report nothing.
#include <cuda/pipeline>

#include "planted.cuh"

constexpr unsigned kThreads = 64, kPerThread = 4, kTile = kThreads * kPerThread, kTiles = 6, kStages = 2;

__device__ void stage_tile(int* stage, const int* tile, cuda::pipeline<cuda::thread_scope_thread>& pipe) {
  pipe.producer_acquire();
  cuda::memcpy_async(stage + threadIdx.x * kPerThread, tile + threadIdx.x * kPerThread,
                     cuda::aligned_size_t<16>(kPerThread * sizeof(int)), pipe);
  pipe.producer_commit();
}

__global__ void sum_tiles(const int* in, int* sums) {
  __shared__ alignas(16) int stages[kStages][kTile];
  __shared__ int partial[kThreads];
  auto pipe = cuda::make_pipeline();
  const int* part = in + blockIdx.x * kTiles * kTile;
  for (unsigned s = 0; s < kStages; ++s) stage_tile(stages[s], part + s * kTile, pipe);
  int sum = 0;
  for (unsigned t = 0; t < kTiles; ++t) {
    pipe.consumer_wait();
    __syncthreads();  // every thread's copies of this stage have landed
    for (unsigned k = threadIdx.x; k < kTile; k += kThreads) sum += stages[t % kStages][k];
    __syncthreads();  // every thread is done with the stage before it is refilled
    pipe.consumer_release();
    if (t + kStages < kTiles) stage_tile(stages[t % kStages], part + (t + kStages) * kTile, pipe);
  }
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned stride = kThreads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
}

int main() {
  constexpr unsigned kBlocks = 3, n = kBlocks * kTiles * kTile;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), sums(kBlocks);
  sum_tiles<<<kBlocks, kThreads>>>(in.get(), sums.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kBlocks, 0);
  for (unsigned i = 0; i < n; ++i) expected[i / (kTiles * kTile)] += input[i];
  return planted::compare(expected, sums.to_host());
}
