// A block scan and a block sum written with cooperative groups, the way CUDA's samples use
// them: tiles of a block, their shuffles and votes, cg::reduce and cg::inclusive_scan, a tile
// of a tile, the dynamic tiled_partition and meta-group ranks. Every result is compared with
// the host's; the program must run clean.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include "planted.cuh"

namespace cg = cooperative_groups;

constexpr unsigned kThreads = 256;
constexpr unsigned kWarp = 32;

// Inclusive scan of each block's elements: each tile scans with shfl_up, tile totals go
// through shared memory, and the first tile scans those with cg::inclusive_scan.
__global__ void block_scan(const int* in, int* out, int* block_sums) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<kWarp> tile = cg::tiled_partition<kWarp>(block);
  __shared__ int tile_totals[kThreads / kWarp];

  const unsigned i = blockIdx.x * block.size() + block.thread_rank();
  int value = in[i];
  for (unsigned offset = 1; offset < tile.size(); offset *= 2) {
    const int before = tile.shfl_up(value, offset);
    if (tile.thread_rank() >= offset) value += before;
  }
  if (tile.thread_rank() == tile.size() - 1) tile_totals[tile.meta_group_rank()] = value;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    auto small = cg::tiled_partition<kThreads / kWarp>(tile);  // a tile of a tile
    if (small.meta_group_rank() == 0) tile_totals[small.thread_rank()] =
        cg::inclusive_scan(small, tile_totals[small.thread_rank()]);
  }
  cg::sync(block);
  if (tile.meta_group_rank() > 0) value += tile_totals[tile.meta_group_rank() - 1];
  out[i] = value;

  // The block's total again, by cg::reduce over dynamic tiles of 16.
  cg::thread_group half_warp = cg::tiled_partition(block, 16);
  const int sixteen = cg::reduce(tile, in[i], cg::plus<int>());
  if (block.thread_rank() == 0) block_sums[blockIdx.x] = 0;
  block.sync();
  if (tile.thread_rank() == 0) atomicAdd(&block_sums[blockIdx.x], sixteen);
  half_warp.sync();
}

// Votes and matches of a tile, written out per element: ballot of odd values (as tile ranks),
// any/all, and how many lanes of the tile hold the same value modulo 4.
__global__ void tile_votes(const int* in, unsigned* ballots, int* any_all, unsigned* matches) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<8>(block);
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const int value = in[i];
  const unsigned odd = tile.ballot(value % 2 == 1);
  const int any_big = tile.any(value > 6);
  const int all_small = tile.all(value < 8);
  const unsigned same = tile.match_any(value % 4);
  ballots[i] = odd;
  any_all[i] = any_big * 2 + all_small;
  matches[i] = __popc(same);
}

int main() {
  constexpr unsigned kBlocks = 4, n = kBlocks * kThreads;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n), sums(kBlocks), any_all(n);
  const planted::DeviceBuffer<unsigned> ballots(n), matches(n);
  block_scan<<<kBlocks, kThreads>>>(in.get(), out.get(), sums.get());
  tile_votes<<<kBlocks, kThreads>>>(in.get(), ballots.get(), any_all.get(), matches.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;

  std::vector<int> expected(n), expected_sums(kBlocks), expected_any_all(n);
  std::vector<unsigned> expected_ballots(n), expected_matches(n);
  for (unsigned b = 0; b < kBlocks; ++b) {
    int running = 0;
    for (unsigned t = 0; t < kThreads; ++t) expected[b * kThreads + t] = running += input[b * kThreads + t];
    expected_sums[b] = running;
  }
  for (unsigned i = 0; i < n; ++i) {
    const unsigned first = i / 8 * 8;
    unsigned odd = 0, same = 0;
    int any_big = 0, all_small = 1;
    for (unsigned r = 0; r < 8; ++r) {
      const int v = input[first + r];
      odd |= (v % 2 == 1 ? 1u : 0u) << r;
      same += v % 4 == input[i] % 4;
      any_big |= v > 6;
      all_small &= v < 8;
    }
    expected_ballots[i] = odd;
    expected_any_all[i] = any_big * 2 + all_small;
    expected_matches[i] = same;
  }
  const std::vector<unsigned> got_ballots = ballots.to_host(), got_matches = matches.to_host();
  for (unsigned i = 0; i < n; ++i)
    if (got_ballots[i] != expected_ballots[i] || got_matches[i] != expected_matches[i]) {
      std::fprintf(stderr, "element %u: ballot %#x (expected %#x), matches %u (expected %u)\n", i, got_ballots[i],
                   expected_ballots[i], got_matches[i], expected_matches[i]);
      return planted::kWrongResult;
    }
  if (int status = planted::compare(expected, out.to_host())) return status;
  if (int status = planted::compare(expected_sums, sums.to_host())) return status;
  if (int status = planted::compare(expected_any_all, any_all.to_host())) return status;
  std::printf("block scans, sums and tile votes of %u elements match the host's\n", n);
  return planted::kCorrect;
}
