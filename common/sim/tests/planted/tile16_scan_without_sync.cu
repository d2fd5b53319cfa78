// Each tile of 16 threads (cg::tiled_partition<16>) scans its elements in shared memory, round
// by round: a thread reads the element `offset` before its own, then adds it to its own. With
// no tile.sync() between the reads and the writes of a round, a thread may overwrite its element
// before the thread `offset` after it read it: a race inside one tile of 16. The fix is the
// tile's own sync(), the call this kernel already makes, not a __syncwarp() it never wrote nor a
// __syncthreads() of the whole block. The fixed twin syncs the tile between them.
#include <cooperative_groups.h>

#include "planted.cuh"

namespace cg = cooperative_groups;

constexpr unsigned kThreads = 128;
constexpr unsigned kTile = 16;

__global__ void tile_scans(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<kTile> tile = cg::tiled_partition<kTile>(block);
  __shared__ int values[kThreads];
  const unsigned i = block.thread_rank();
  values[i] = in[blockIdx.x * kThreads + i];
  tile.sync();
  for (unsigned offset = 1; offset < kTile; offset *= 2) {
    const int before = tile.thread_rank() >= offset ? values[i - offset] : 0;  // expect: race
#ifdef PLANTED_FIXED
    tile.sync();
#endif
    values[i] += before;  // expect: race
    tile.sync();
  }
  out[blockIdx.x * kThreads + i] = values[i];
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kThreads;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  tile_scans<<<kBlocks, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned t = 0; t < n / kTile; ++t) {
    int running = 0;
    for (unsigned k = 0; k < kTile; ++k) expected[t * kTile + k] = running += input[t * kTile + k];
  }
  return planted::compare(expected, out.to_host());
}
