// A warp-specialized block sums its row of tiles through a ring of two stages shared by the
// block (cuda::pipeline_shared_state): warp 0 produces, each lane copying its elements with
// cuda::memcpy_async into the stage it acquired; warps 1 and 2 consume. Here a consumer releases
// its stage before it reads it, so producer_acquire() lets the producer refill the stage while
// the consumers may still read it: a race between the copy and the read. The fixed twin
// releases the stage after its last read.
#include <cooperative_groups.h>
#include <cuda/pipeline>

#include "planted.cuh"

// A __shared__ pipeline state is set up by make_pipeline(), not by a constructor: nvcc's warning
// does not apply.
#pragma nv_diag_suppress static_var_with_dynamic_init

namespace cg = cooperative_groups;

constexpr unsigned kStages = 2, kTile = 64, kTiles = 6, kWarp = 32, kThreads = kWarp + kTile;

__global__ void sum_tiles(const int* in, int* out) {
  __shared__ int stages[kStages][kTile];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
  const cg::thread_block block = cg::this_thread_block();
  const bool producer = threadIdx.x < kWarp;
  auto pipe = cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  const int* row = in + blockIdx.x * kTiles * kTile;
  if (producer) {
    for (unsigned t = 0; t < kTiles; ++t) {
      pipe.producer_acquire();
      for (unsigned i = threadIdx.x; i < kTile; i += kWarp)
        cuda::memcpy_async(&stages[t % kStages][i], &row[t * kTile + i], sizeof(int), pipe);  // expect: race
      pipe.producer_commit();
    }
    return;
  }
  const unsigned c = threadIdx.x - kWarp;
  int sum = 0;
  for (unsigned t = 0; t < kTiles; ++t) {
    pipe.consumer_wait();
#ifdef PLANTED_FIXED
    sum += stages[t % kStages][c];
    pipe.consumer_release();
#else
    pipe.consumer_release();
    sum += stages[t % kStages][c];  // expect: race
#endif
  }
  out[blockIdx.x * kTile + c] = sum;
}

int main() {
  constexpr unsigned kBlocks = 2;
  return planted::check_column_sums(kBlocks, kTiles, kTile, [](const int* in, int* out) {
    sum_tiles<<<kBlocks, kThreads>>>(in, out);
  });
}
