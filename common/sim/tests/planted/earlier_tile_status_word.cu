// A single-pass scan's look-back by blocks that take tile after tile: each block, one warp, takes
// a tile by ticket, publishes the tile's aggregate, looks back over a window of 32 tiles before
// it (one lane a tile, as own_status_word.cu does), and lane 0 publishes the tile's inclusive
// prefix. The bug: nothing orders lane 0's store of one tile's inclusive prefix before the other
// lanes' reads in the block's next look-back, which reads that very word when the block's earlier
// tile lies in the window. Unlike own_status_word.cu, the word is right to read (it is not the
// block's own tile's, which the block has since moved past): the lanes only need to see lane 0's
// store, which __syncwarp() after it gives. With -DPLANTED_FIXED the warp syncs after each tile.
#include "planted.cuh"

constexpr unsigned kTiles = 48;
constexpr unsigned kBlocks = 3;
constexpr unsigned kWarp = 32;
constexpr unsigned kNothingYet = 0, kAggregate = 1, kInclusive = 2;

__device__ void publish(unsigned long long* status, unsigned tile, unsigned state, unsigned value) {
  static_cast<volatile unsigned long long*>(status)[tile] = static_cast<unsigned long long>(state) << 32 | value;  // expect: race
}

// What the tiles before `tile` add up to, from the nearest inclusive prefix on.
__device__ unsigned sum_before(const unsigned long long* status, unsigned tile, unsigned lane) {
  unsigned before = 0;
  for (int window_end = static_cast<int>(tile) - 1;; window_end -= static_cast<int>(kWarp)) {
    const int index = window_end - static_cast<int>(kWarp - 1 - lane);
    unsigned long long seen = 0;
    if (index >= 0) {  // wait for the tile's word to show a state
      const volatile unsigned long long* word = status + index;
      do {
        seen = *word;  // expect: race
      } while (seen >> 32 == kNothingYet);
    }
    const unsigned inclusive_lanes = __ballot_sync(~0u, index >= 0 && seen >> 32 == kInclusive);
    const unsigned first = inclusive_lanes == 0 ? 0 : kWarp - 1 - __clz(inclusive_lanes);
    unsigned window = lane >= first && index >= 0 ? static_cast<unsigned>(seen) : 0;
    for (unsigned d = kWarp / 2; d > 0; d /= 2) window += __shfl_xor_sync(~0u, window, d);
    before += window;
    if (inclusive_lanes != 0) return before;
  }
}

__global__ void scan_tiles(const unsigned* in, unsigned* ticket, unsigned long long* status, unsigned* out) {
  const unsigned lane = threadIdx.x;
  for (;;) {
    unsigned tile = 0;
    if (lane == 0) {
      // Fenced on both sides; the words read after the ticket carry their own states, so the
      // look-back runs clean without the fences too (lookback_tickets_unfenced.cu).
      __threadfence();
      tile = atomicAdd(ticket, 1u);
      __threadfence();
    }
    tile = __shfl_sync(~0u, tile, 0);
    if (tile >= kTiles) return;
    const unsigned aggregate = in[tile];
    unsigned before = 0;
    if (tile > 0) {
      if (lane == 0) publish(status, tile, kAggregate, aggregate);
      before = sum_before(status, tile, lane);
    }
    if (lane == 0) {
      publish(status, tile, kInclusive, before + aggregate);
      out[tile] = before;
    }
#ifdef PLANTED_FIXED
    __syncwarp();  // the block's next look-back may read the word lane 0 just stored
#endif
  }
}

int main() {
  std::vector<unsigned> input(kTiles);
  for (unsigned i = 0; i < kTiles; ++i) input[i] = 1 + i % 5;
  const planted::DeviceBuffer<unsigned> in(input), ticket(1), out(kTiles);
  const planted::DeviceBuffer<unsigned long long> status(kTiles);
  scan_tiles<<<kBlocks, kWarp>>>(in.get(), ticket.get(), status.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return planted::compare_exclusive_sums(input, out.to_host());
}
