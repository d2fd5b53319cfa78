// Tiles of 128 threads sum their elements, but the threads past the end of the input return
// first (the usual `if (i >= n) return;`), so the last tile's sync waits for threads that have
// exited: on a GPU it never completes. Unlike __syncthreads, a tile's sync does not count exited
// threads as arrived. The fixed twin keeps every thread and lets those past the end add nothing.
#include <cooperative_groups.h>

#include "planted.cuh"

namespace cg = cooperative_groups;

constexpr unsigned kThreads = 256;
constexpr unsigned kTile = 128;

__global__ void tile_sums(const int* in, int* out, unsigned n) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<kTile>(block);
  __shared__ int staged[kThreads];
  const unsigned i = blockIdx.x * kThreads + block.thread_rank();
#ifdef PLANTED_FIXED
  staged[block.thread_rank()] = i < n ? in[i] : 0;
#else
  if (i >= n) return;
  staged[block.thread_rank()] = in[i];
#endif
  tile.sync();  // expect: barrier-divergence
  if (tile.thread_rank() == 0) {
    int sum = 0;
    for (unsigned r = 0; r < kTile; ++r) sum += staged[tile.meta_group_rank() * kTile + r];
    out[blockIdx.x * (kThreads / kTile) + tile.meta_group_rank()] = sum;
  }
}

int main() {
  constexpr unsigned n = 300, tiles = (n + kTile - 1) / kTile, blocks = (n + kThreads - 1) / kThreads;
  std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(blocks * (kThreads / kTile));
  tile_sums<<<blocks, kThreads>>>(in.get(), out.get(), n);
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(tiles, 0);
  for (unsigned k = 0; k < n; ++k) expected[k / kTile] += input[k];
  std::vector<int> sums = out.to_host();
  sums.resize(tiles);
  return planted::compare(expected, sums);
}
