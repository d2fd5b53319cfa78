// A single-pass scan's look-back by blocks that take tile after tile, with no fence around the
// ticket: each block, one warp, takes a tile with a plain atomicAdd on a counter, publishes the
// tile's aggregate, looks back over a window of 32 tiles before it (one lane a tile) and lane 0
// publishes the tile's inclusive prefix. Correct as written, and must run clean: every word read
// after the ticket is a status word that carries its own state beside its value in one 64-bit
// volatile store, and the look-back waits on each word's state, never on the ticket. The ticket
// only numbers the tiles; whatever older value of a word a GPU served, it is either "nothing yet"
// (the lane polls again) or a state with its value, so nothing the ticket could order is read.
#include "planted.cuh"

constexpr unsigned kTiles = 48;
constexpr unsigned kBlocks = 3;
constexpr unsigned kWarp = 32;
constexpr unsigned kNothingYet = 0, kAggregate = 1, kInclusive = 2;

__device__ void publish(unsigned long long* status, unsigned tile, unsigned state, unsigned value) {
  static_cast<volatile unsigned long long*>(status)[tile] = static_cast<unsigned long long>(state) << 32 | value;
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
        seen = *word;
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
    if (lane == 0) tile = atomicAdd(ticket, 1u);  // relaxed, and nothing the block reads depends on it
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
    __syncwarp();  // the block's next look-back may read the word lane 0 just stored
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
