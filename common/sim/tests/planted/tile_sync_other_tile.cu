// Two tiles of 128 threads of one block hand a value through shared memory, ordered only by
// tile.sync(): a tile's sync waits for its own threads, so the first tile's write and the second
// tile's read are not ordered (a race). The fixed twin orders them with block.sync().
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "planted.cuh"

namespace cg = cooperative_groups;

constexpr unsigned kThreads = 256;
constexpr unsigned kTile = 128;

__global__ void tile_totals(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<kTile>(block);
  __shared__ int totals[kThreads / kTile];
  const int sum = cg::reduce(tile, in[blockIdx.x * kThreads + block.thread_rank()], cg::plus<int>());
  if (tile.thread_rank() == 0) totals[tile.meta_group_rank()] = sum;  // expect: race
#ifdef PLANTED_FIXED
  block.sync();
#else
  tile.sync();
#endif
  // Each tile's last thread adds the other tile's total to its own.
  if (tile.thread_rank() == kTile - 1)
    out[blockIdx.x * 2 + tile.meta_group_rank()] = sum + totals[1 - tile.meta_group_rank()];  // expect: race
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kThreads;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(kBlocks * 2);
  tile_totals<<<kBlocks, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kBlocks * 2);
  for (unsigned b = 0; b < kBlocks; ++b) {
    int block_sum = 0;
    for (unsigned k = 0; k < kThreads; ++k) block_sum += input[b * kThreads + k];
    expected[b * 2] = expected[b * 2 + 1] = block_sum;
  }
  return planted::compare(expected, out.to_host());
}
