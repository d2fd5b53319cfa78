// A single-pass scan's look-back, one warp per block: each block takes a tile by ticket,
// publishes its tile's aggregate in its status word (state in the high half, value in the low
// half, one volatile 64-bit store), then each lane waits for one tile of a window before it and
// the warp adds up the values from the nearest inclusive prefix on. The bug: the window starts
// at the block's own tile instead of the one before it, so lane 31 reads the status word its own
// lane 0 publishes. Within the warp that is a race, but __syncwarp() would only hide it: the
// block would add its own aggregate to what comes before it. With -DPLANTED_FIXED the window
// starts at the tile before the block's own.
#include "planted.cuh"

constexpr unsigned kTiles = 40;
constexpr unsigned kWarp = 32;
constexpr unsigned kNothingYet = 0, kAggregate = 1, kInclusive = 2;

#ifdef PLANTED_FIXED
constexpr unsigned kWindowStartsBefore = 1;
#else
constexpr unsigned kWindowStartsBefore = 0;
#endif

__device__ void publish(unsigned long long* status, unsigned tile, unsigned state, unsigned value) {
  static_cast<volatile unsigned long long*>(status)[tile] = static_cast<unsigned long long>(state) << 32 | value;  // expect: race
}

__global__ void look_back(const unsigned* in, unsigned* ticket, unsigned long long* status, unsigned* out) {
  __shared__ unsigned tile_of_block;
  const unsigned lane = threadIdx.x;
  if (lane == 0) tile_of_block = atomicAdd(ticket, 1u);
  __syncthreads();
  const unsigned tile = tile_of_block;
  const unsigned aggregate = in[tile];
  if (tile == 0) {
    if (lane == 0) {
      publish(status, 0, kInclusive, aggregate);
      out[0] = 0;
    }
    return;
  }
  if (lane == 0) publish(status, tile, kAggregate, aggregate);
  unsigned before = 0;
  for (unsigned window_end = tile - 1 + (1 - kWindowStartsBefore);; window_end -= kWarp) {
    const unsigned offset = kWarp - 1 - lane;  // how far before window_end
    const bool exists = offset <= window_end;
    unsigned long long seen = 0;
    if (exists) {  // wait for the tile's word to show a state
      const volatile unsigned long long* word = status + (window_end - offset);
      do {
        seen = *word;  // expect: race
      } while (seen >> 32 == kNothingYet);
    }
    const unsigned inclusive_lanes = __ballot_sync(~0u, exists && seen >> 32 == kInclusive);
    const unsigned first = inclusive_lanes == 0 ? 0 : kWarp - 1 - __clz(inclusive_lanes);
    unsigned window = lane >= first && exists ? static_cast<unsigned>(seen) : 0;
    for (unsigned d = kWarp / 2; d > 0; d /= 2) window += __shfl_xor_sync(~0u, window, d);
    before += window;
    if (inclusive_lanes != 0) break;
  }
  if (lane == 0) {
    publish(status, tile, kInclusive, before + aggregate);
    out[tile] = before;
  }
}

int main() {
  std::vector<unsigned> input(kTiles);
  for (unsigned i = 0; i < kTiles; ++i) input[i] = 1 + i % 7;
  const planted::DeviceBuffer<unsigned> in(input), ticket(1), out(kTiles);
  const planted::DeviceBuffer<unsigned long long> status(kTiles);
  look_back<<<kTiles, kWarp>>>(in.get(), ticket.get(), status.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return planted::compare_exclusive_sums(input, out.to_host());
}
