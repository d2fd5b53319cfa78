// A chained scan whose blocks hand on their inclusive prefixes in packed status words, as lab 07
// does for values of 4 bytes: the prefix in the low half of a 64-bit word, a published bit above
// it, both written by one atomicExch and polled by the next block with volatile 64-bit loads.
// Such a word is its own flag: the reader sees the store whole or not at all, so there is nothing
// stale to hand on and no fence is needed. Every thread also counts the additions it makes in one
// global counter with atomicAdd (as the grader's counting operator does), so the reader updates
// that counter before it polls, and the writer's block after it publishes: the counter is no flag
// of the hand-off, since the reader changed it before anything was published, and the hand-off is
// not reported. The bug is elsewhere: thread 0 shares what comes before the tile with its block
// through shared memory, and the other threads read it with no barrier after thread 0 wrote it (a
// race in shared memory, the only report). With -DPLANTED_FIXED the barrier is there and the
// program runs clean.
#include "planted.cuh"

constexpr unsigned kThreads = 256;
constexpr unsigned kItems = 8;  // consecutive elements of each thread
constexpr unsigned kTile = kThreads * kItems;
constexpr unsigned kBlocks = 8;
constexpr unsigned long long kPublishedBit = 1ULL << 32;  // above the prefix's 32 bits

__device__ int counted_add(int a, int b, unsigned* additions) {
  atomicAdd(additions, 1u);
  return a + b;
}

// Each element becomes what comes before its tile plus its thread's elements up to it.
__global__ void packed_chained_scan(const int* in, int* out, unsigned* ticket, unsigned long long* status,
                                    unsigned* additions) {
  __shared__ unsigned tile;
  __shared__ int tile_sum;
  __shared__ int before;  // what comes before this block's tile
  if (threadIdx.x == 0) {
    tile = atomicAdd(ticket, 1u);
    tile_sum = 0;
    before = 0;
  }
  __syncthreads();
  const unsigned first = tile * kTile + threadIdx.x * kItems;
  int own_sum = 0;
  for (unsigned i = first; i < first + kItems; ++i) own_sum += in[i];
  atomicAdd(&tile_sum, own_sum);
  __syncthreads();
  if (threadIdx.x == 0) {
    int prefix = counted_add(0, 0, additions);  // the operator's identity
    if (tile > 0) {
      const volatile unsigned long long* word = &status[tile - 1];
      unsigned long long seen = *word;
      while ((seen & kPublishedBit) == 0) seen = *word;  // the tile before started earlier: it will publish
      prefix = static_cast<int>(static_cast<unsigned>(seen));
    }
    const int inclusive = counted_add(prefix, tile_sum, additions);
    atomicExch(&status[tile], kPublishedBit | static_cast<unsigned>(inclusive));  // value and flag at once
    before = prefix;  // expect: race
  }
#ifdef PLANTED_FIXED
  __syncthreads();
#endif
  int running = before;  // expect: race
  for (unsigned i = first; i < first + kItems; ++i) {
    running = counted_add(running, in[i], additions);
    out[i] = running;
  }
}

int main() {
  const std::vector<int> input = planted::test_input(kBlocks * kTile);
  const planted::DeviceBuffer<int> in(input), out(input.size());
  const planted::DeviceBuffer<unsigned> ticket(1), additions(1);
  const planted::DeviceBuffer<unsigned long long> status(kBlocks);
  packed_chained_scan<<<kBlocks, kThreads>>>(in.get(), out.get(), ticket.get(), status.get(), additions.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(input.size());
  int tiles_before = 0;
  for (unsigned tile = 0; tile < kBlocks; ++tile) {
    for (unsigned first = tile * kTile; first < (tile + 1) * kTile; first += kItems) {
      int running = tiles_before;
      for (unsigned i = first; i < first + kItems; ++i) expected[i] = running += input[i];
    }
    for (unsigned i = tile * kTile; i < (tile + 1) * kTile; ++i) tiles_before += input[i];
  }
  return planted::compare(expected, out.to_host());
}
