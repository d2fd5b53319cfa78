// A tile of 64 threads stages values and syncs, but one thread of each tile skips the sync (it
// has nothing to stage): the tile's other 63 threads wait for it forever on a GPU. The simulator
// reports it at the sync, naming where the missing thread is. The fixed twin syncs every thread.
#include <cooperative_groups.h>

#include "planted.cuh"

namespace cg = cooperative_groups;

constexpr unsigned kThreads = 128;
constexpr unsigned kTile = 64;

__global__ void tile_sums(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<kTile>(block);
  __shared__ int staged[kThreads];
  staged[block.thread_rank()] = in[blockIdx.x * kThreads + block.thread_rank()];
#ifdef PLANTED_FIXED
  tile.sync();
#else
  if (tile.thread_rank() != 5) tile.sync();  // expect: barrier-divergence
#endif
  if (tile.thread_rank() == 0) {
    int sum = 0;
    for (unsigned r = 0; r < kTile; ++r) sum += staged[tile.meta_group_rank() * kTile + r];
    out[blockIdx.x * (kThreads / kTile) + tile.meta_group_rank()] = sum;
  }
  block.sync();  // expect: barrier-divergence
}

int main() {
  constexpr unsigned kBlocks = 2;
  return planted::check_tile_sums(kBlocks * kThreads, kTile, [](const int* in, int* out) {
    tile_sums<<<kBlocks, kThreads>>>(in, out);
  });
}
