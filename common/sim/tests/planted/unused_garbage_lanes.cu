// Warps of a block share their sums through shared memory: each warp scans its values with
// shuffles, its last lane stores the warp's sum, and warp 0 loads one sum per lane, for all 32
// lanes, though the block has only 4 warps: lanes 4 to 31 read shared memory that nothing wrote
// (NVIDIA's shfl_scan sample loads its warp sums this way). Whether that is a bug depends on
// where the garbage goes.
//   usage: unused_garbage_lanes scan|total
//     scan:  warp 0 scans the sums upward (shfl_up): the garbage of lanes 4-31 reaches only
//            lanes 4-31, whose sums no warp uses; the block scan is right, and nothing is reported
//     total: warp 0 adds the sums downward (shfl_down) into lane 0: the garbage reaches the
//            block's total, an error at the load
// With -DPLANTED_FIXED lanes past the last warp load 0 instead, and both run clean.
#include <cooperative_groups.h>

#include <cstring>

#include "planted.cuh"

namespace cg = cooperative_groups;

constexpr unsigned kThreads = 128;
constexpr unsigned kWarps = kThreads / 32;
constexpr unsigned kBlocks = 3;
constexpr unsigned kAll = 0xffffffffu;

#ifdef PLANTED_FIXED
constexpr bool kGuardedLoad = true;
#else
constexpr bool kGuardedLoad = false;
#endif

__global__ void share_warp_sums(const int* in, int* scan, int* totals, bool upward) {
  __shared__ int sums[32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int value = in[i];
  for (unsigned d = 1; d < 32; d *= 2) {
    const int below = __shfl_up_sync(kAll, value, d);
    if (lane >= d) value += below;
  }
  if (lane == 31) sums[warp] = value;
  __syncthreads();
  if (warp == 0) {
    // Through a cooperative-groups tile, as the sample does: its calls read tables in read-only
    // memory, which a second run sees unchanged.
    const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    int sum = kGuardedLoad && lane >= kWarps ? 0 : sums[lane];  // expect: uninitialized-read
    if (upward) {
      for (unsigned d = 1; d < 32; d *= 2) {
        const int below = tile.shfl_up(sum, d);
        if (tile.thread_rank() >= d) sum += below;
      }
      sums[lane] = sum;
    } else {
      for (unsigned d = 16; d > 0; d /= 2) sum += tile.shfl_down(sum, d);
      if (tile.thread_rank() == 0) totals[blockIdx.x] = sum;
    }
  }
  __syncthreads();
  if (upward) scan[i] = value + (warp > 0 ? sums[warp - 1] : 0);
}

int main(int argc, char** argv) {
  if (argc != 2 || (std::strcmp(argv[1], "scan") != 0 && std::strcmp(argv[1], "total") != 0))
    return planted::kBadArguments;
  const bool upward = std::strcmp(argv[1], "scan") == 0;
  const std::vector<int> input = planted::test_input(kBlocks * kThreads);
  const planted::DeviceBuffer<int> in(input), scan(input.size()), totals(kBlocks);
  share_warp_sums<<<kBlocks, kThreads>>>(in.get(), scan.get(), totals.get(), upward);
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected_scan(input.size()), expected_totals(kBlocks, 0);
  for (unsigned b = 0; b < kBlocks; ++b)
    for (unsigned t = 0, sum = 0; t < kThreads; ++t) {
      sum += input[b * kThreads + t];
      expected_scan[b * kThreads + t] = static_cast<int>(sum);
      expected_totals[b] = static_cast<int>(sum);
    }
  return upward ? planted::compare(expected_scan, scan.to_host()) : planted::compare(expected_totals, totals.to_host());
}
