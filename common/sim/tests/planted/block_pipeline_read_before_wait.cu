// A warp-specialized block sums its row of tiles through a pipeline shared by the block
// (cuda::pipeline_shared_state): warp 0 produces, copying each tile into the stage it acquired
// with the group form of cuda::memcpy_async; the other warps consume, one element a thread.
// Here the consumers read a stage before consumer_wait() returns for it, while the copy may not
// have landed: a race between the copy and the read. The fixed twin waits first.
#include <cooperative_groups.h>
#include <cuda/pipeline>

#include "planted.cuh"

// A __shared__ pipeline state is set up by make_pipeline(), not by a constructor: nvcc's warning
// does not apply.
#pragma nv_diag_suppress static_var_with_dynamic_init

namespace cg = cooperative_groups;

constexpr unsigned kStages = 2, kTile = 64, kTiles = 6, kWarp = 32, kThreads = kWarp + kTile;

__global__ void sum_tiles(const int* in, int* out) {
  __shared__ alignas(16) int stages[kStages][kTile];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
  const cg::thread_block block = cg::this_thread_block();
  // The buffers start at zero, so that a read that comes too early reads a value, not garbage;
  // make_pipeline() syncs the block before the first copy.
  for (unsigned i = threadIdx.x; i < kStages * kTile; i += kThreads) stages[i / kTile][i % kTile] = 0;
  const bool producer = threadIdx.x < kWarp;
  auto pipe = cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  const int* row = in + blockIdx.x * kTiles * kTile;
  if (producer) {
    const cg::thread_block_tile<kWarp> warp = cg::tiled_partition<kWarp>(block);
    for (unsigned t = 0; t < kTiles; ++t) {
      pipe.producer_acquire();
      cuda::memcpy_async(warp, stages[t % kStages], row + t * kTile, sizeof stages[0], pipe);  // expect: race
      pipe.producer_commit();
    }
    return;
  }
  const unsigned c = threadIdx.x - kWarp;
  int sum = 0;
  for (unsigned t = 0; t < kTiles; ++t) {
#ifdef PLANTED_FIXED
    pipe.consumer_wait();
    sum += stages[t % kStages][c];
#else
    sum += stages[t % kStages][c];  // expect: race
    pipe.consumer_wait();
#endif
    pipe.consumer_release();
  }
  out[blockIdx.x * kTile + c] = sum;
}

int main() {
  constexpr unsigned kBlocks = 2;
  return planted::check_column_sums(kBlocks, kTiles, kTile, [](const int* in, int* out) {
    sum_tiles<<<kBlocks, kThreads>>>(in, out);
  });
}
