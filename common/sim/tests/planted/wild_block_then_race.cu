// A block that runs wild does not hide what other blocks do. Under the default settings (blocks
// started last first, 16 at once) block 15 runs in the fifth slot, alone: its thread 0 reads a
// loop bound past the end of `counts` (the fill pattern of fresh memory) and reads on below the
// start of `counts` until the simulator stops the block, while its thread 1 waits in the serial
// phase for a flag that thread 0 would set after the loop. Block 4, in the last slot, races
// on `scratch` (threads exchange values with no barrier); its report must not be dropped for
// the stop. With -DPLANTED_FIXED the bound is read in bounds and a barrier orders the exchange.
#include "planted.cuh"

constexpr unsigned kBlocks = 20;
constexpr unsigned kThreads = 64;
constexpr unsigned kWildBlock = 15;
constexpr unsigned kRacingBlock = 4;

__global__ void wild_then_race(const unsigned* counts, int* out, int* flag, int* scratch) {
  const unsigned t = threadIdx.x;
  if (blockIdx.x == kWildBlock) {
    if (t == 0) {
      atomicAdd(flag, 0);  // a turn in the serial phase, as thread 1 takes one
#ifdef PLANTED_FIXED
      const unsigned count = counts[0];
#else
      const unsigned count = counts[kBlocks];  // expect: out-of-bounds
#endif
      int sum = 0;
      for (unsigned i = 0; i < count; ++i) {
        const int below = static_cast<int>(kBlocks - 1 - i);  // negative once i reaches kBlocks
        sum += static_cast<int>(counts[below]);  // expect: out-of-bounds
      }
      out[kThreads] = sum;
      atomicExch(flag, 1);
    } else if (t == 1) {
      while (atomicAdd(flag, 0) == 0) {
      }
    }
    return;
  }
  if (blockIdx.x == kRacingBlock) {
    scratch[t] = static_cast<int>(t);  // expect: race
#ifdef PLANTED_FIXED
    __syncthreads();
#endif
    out[t] = scratch[(t + 1) % kThreads];  // expect: race
  }
}

int main() {
  const planted::DeviceBuffer<unsigned> counts(std::vector<unsigned>(kBlocks, 1));
  const planted::DeviceBuffer<int> out(kThreads + 1), flag(1), scratch(kThreads);
  wild_then_race<<<kBlocks, kThreads>>>(counts.get(), out.get(), flag.get(), scratch.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kThreads + 1);
  for (unsigned i = 0; i < kThreads; ++i) expected[i] = static_cast<int>((i + 1) % kThreads);
  expected[kThreads] = 1;
  return planted::compare(expected, out.to_host());
}
