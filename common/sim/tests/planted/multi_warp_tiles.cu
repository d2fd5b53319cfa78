// Tiles of several warps (64 ... 1024 threads) as CUDA 12 gives them: block_tile_memory passed to
// this_thread_block, tiled_partition<N>, the tile's ranks and meta-group ranks, cg::reduce,
// cg::inclusive_scan and cg::exclusive_scan over the tile, shfl, any and all, a tile of a tile,
// and shared memory handed between the warps of a tile by tile.sync() and cg::sync(tile) alone.
// Every result is compared with the host's; the program must run clean.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include "planted.cuh"

namespace cg = cooperative_groups;

constexpr unsigned kThreads = 1024;
// Per element: the tile's sum, inclusive and exclusive scans, the maximum by cg::greater, the
// value of the tile's last rank, the votes, the meta-group rank and size, the value of the
// element one warp on within the tile (through shared memory), and a sub-tile's sum.
constexpr unsigned kResults = 10;

template <unsigned Tile>
__global__ void tile_collectives(const int* in, int* out) {
  __shared__ cg::block_tile_memory<kThreads> scratch;
  __shared__ int staged[kThreads];
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<Tile> tile = cg::tiled_partition<Tile>(block);
  const unsigned i = blockIdx.x * kThreads + block.thread_rank();
  const int value = in[i];
  int* mine = out + i * kResults;
  mine[0] = cg::reduce(tile, value, cg::plus<int>());
  mine[1] = cg::inclusive_scan(tile, value);
  mine[2] = cg::exclusive_scan(tile, value, cg::plus<int>());
  mine[3] = cg::reduce(tile, value, cg::greater<int>());
  mine[4] = tile.shfl(value, Tile - 1);
  mine[5] = tile.any(value == 0) * 2 + tile.all(value > 0);
  mine[6] = static_cast<int>(tile.meta_group_rank() * 100 + tile.meta_group_size());
  // A warp hands its values to the next warp of the tile: tile.sync() orders the two.
  staged[block.thread_rank()] = value;
  tile.sync();
  const unsigned next = (tile.thread_rank() + 32) % Tile;
  mine[7] = staged[block.thread_rank() - tile.thread_rank() + next];
  cg::sync(tile);  // every read above before the next write
  staged[block.thread_rank()] = -value;
  tile.sync();
  mine[7] += staged[block.thread_rank() - tile.thread_rank() + next] * 1000;
  // Half of the tile as a tile of its own.
  auto half = cg::tiled_partition<Tile / 2>(tile);
  mine[8] = cg::reduce(half, value, cg::plus<int>()) + static_cast<int>(half.meta_group_rank()) * 100000;
  mine[9] = static_cast<int>(tile.thread_rank() + 10000 * tile.num_threads() + 100000000 * (tile.size() == Tile));
}

template <unsigned Tile>
int check_tile(const std::vector<int>& input) {
  constexpr unsigned kBlocks = 2, n = kBlocks * kThreads;
  const planted::DeviceBuffer<int> in(input), out(n * kResults);
  tile_collectives<Tile><<<kBlocks, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n * kResults);
  for (unsigned first = 0; first < n; first += Tile) {
    int sum = 0, largest = input[first], any = 0, all = 1;
    for (unsigned k = 0; k < Tile; ++k) {
      sum += input[first + k];
      largest = std::max(largest, input[first + k]);
      any |= input[first + k] == 0;
      all &= input[first + k] > 0;
    }
    int running = 0;
    for (unsigned k = 0; k < Tile; ++k) {
      int* e = &expected[(first + k) * kResults];
      e[0] = sum;
      e[2] = running;
      running += input[first + k];
      e[1] = running;
      e[3] = largest;
      e[4] = input[first + Tile - 1];
      e[5] = any * 2 + all;
      e[6] = static_cast<int>(((first % kThreads) / Tile) * 100 + kThreads / Tile);
      const int next = input[first + (k + 32) % Tile];
      e[7] = next - next * 1000;
      const unsigned half_first = first + k / (Tile / 2) * (Tile / 2);
      int half_sum = 0;
      for (unsigned h = 0; h < Tile / 2; ++h) half_sum += input[half_first + h];
      e[8] = half_sum + static_cast<int>(k / (Tile / 2)) * 100000;
      e[9] = static_cast<int>(k + 10000 * Tile + 100000000);
    }
  }
  const int verdict = planted::compare(expected, out.to_host());
  if (verdict != planted::kCorrect) std::printf("tiles of %u threads: wrong results\n", Tile);
  return verdict;
}

int main() {
  std::vector<int> input = planted::test_input(2 * kThreads);
  input[700] = 0;  // one tile of each size votes yes in any() and no in all()
  for (const int verdict : {check_tile<64>(input), check_tile<128>(input), check_tile<256>(input),
                            check_tile<512>(input), check_tile<1024>(input)})
    if (verdict != planted::kCorrect) return verdict;
  std::printf("reductions, scans, shuffles, votes and hand-offs of tiles of 64 to 1024 threads match the host's\n");
  return planted::kCorrect;
}
