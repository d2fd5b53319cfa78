// A double-buffered scan of tiles with cooperative_groups::memcpy_async: the block copies the
// next tile into one shared buffer while it scans the current one (Kogge-Stone, reading one array
// and writing the other), and carries the running total from tile to tile. wait_prior<1>(block)
// completes the current tile's copy and syncs the block. Clean: the simulator must report nothing.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

#include "planted.cuh"

namespace cg = cooperative_groups;

constexpr unsigned kThreads = 64, kTiles = 4;

__global__ void scan_tiles(const int* in, int* out) {
  __shared__ alignas(16) int staged[2][kThreads];
  __shared__ int scanned[2][kThreads];
  const cg::thread_block block = cg::this_thread_block();
  const unsigned first = blockIdx.x * kTiles * kThreads;
  cg::memcpy_async(block, staged[0], in + first, sizeof(int) * kThreads);
  int carry = 0;
  for (unsigned t = 0; t < kTiles; ++t) {
    if (t + 1 < kTiles) {
      cg::memcpy_async(block, staged[(t + 1) % 2], in + first + (t + 1) * kThreads, sizeof(int) * kThreads);
      cg::wait_prior<1>(block);
    } else {
      cg::wait(block);
    }
    unsigned from = 0;
    scanned[0][threadIdx.x] = staged[t % 2][threadIdx.x];
    block.sync();
    for (unsigned d = 1; d < kThreads; d *= 2) {
      int v = scanned[from][threadIdx.x];
      if (threadIdx.x >= d) v += scanned[from][threadIdx.x - d];
      scanned[1 - from][threadIdx.x] = v;
      from = 1 - from;
      block.sync();
    }
    out[first + t * kThreads + threadIdx.x] = carry + scanned[from][threadIdx.x];
    carry += scanned[from][kThreads - 1];
    block.sync();  // the tile's scan is read before the next tile overwrites it
  }
}

int main() {
  constexpr unsigned kBlocks = 2, per_block = kTiles * kThreads, n = kBlocks * per_block;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  scan_tiles<<<kBlocks, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = (i % per_block == 0 ? 0 : expected[i - 1]) + input[i];
  return planted::compare(expected, out.to_host());
}
