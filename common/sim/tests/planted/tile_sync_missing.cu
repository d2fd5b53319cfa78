// Each warp of a tile of 256 threads reads the values the next warp of the tile staged in shared
// memory, with no tile.sync() between the write and the read: a race between warps of one tile.
// The fixed twin syncs the tile, which orders them without a barrier of the whole block.
#include <cooperative_groups.h>

#include "planted.cuh"

namespace cg = cooperative_groups;

constexpr unsigned kThreads = 512;
constexpr unsigned kTile = 256;

__global__ void rotate_by_a_warp(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<kTile>(block);
  __shared__ int staged[kThreads];
  const unsigned i = blockIdx.x * kThreads + block.thread_rank();
  staged[block.thread_rank()] = 0;
  block.sync();
  staged[block.thread_rank()] = in[i];  // expect: race
#ifdef PLANTED_FIXED
  tile.sync();
#endif
  const unsigned next = (tile.thread_rank() + 32) % kTile;
  out[i] = staged[block.thread_rank() - tile.thread_rank() + next];  // expect: race
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kThreads;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  rotate_by_a_warp<<<kBlocks, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = input[i / kTile * kTile + (i % kTile + 32) % kTile];
  return planted::compare(expected, out.to_host());
}
