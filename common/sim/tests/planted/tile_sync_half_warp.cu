// Tile sums through shared memory with a tile.sync() that only half of each tile reaches: the
// lanes that wait there wait for lanes that never come. compute-sanitizer's synccheck does not
// report this on an H100; the simulator reports it at the sync. The fixed twin syncs the whole tile.
#include <cooperative_groups.h>

#include "planted.cuh"

namespace cg = cooperative_groups;

constexpr unsigned kThreads = 64;
constexpr unsigned kTile = 32;

__global__ void tile_sums(const int* in, int* out) {
  auto tile = cg::tiled_partition<kTile>(cg::this_thread_block());
  __shared__ int staged[kThreads];
  staged[threadIdx.x] = in[blockIdx.x * kThreads + threadIdx.x];
#ifdef PLANTED_FIXED
  tile.sync();
#else
  if (tile.thread_rank() < kTile / 2) tile.sync();  // expect: warp-mask
#endif
  if (tile.thread_rank() == 0) {
    int sum = 0;
    for (unsigned r = 0; r < kTile; ++r) sum += staged[tile.meta_group_rank() * kTile + r];
    out[blockIdx.x * (kThreads / kTile) + tile.meta_group_rank()] = sum;
  }
}

int main() {
  constexpr unsigned kBlocks = 2;
  return planted::check_tile_sums(kBlocks * kThreads, kTile, [](const int* in, int* out) {
    tile_sums<<<kBlocks, kThreads>>>(in, out);
  });
}
