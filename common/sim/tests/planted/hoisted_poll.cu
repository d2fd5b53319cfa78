// Each block waits for the block before it to publish its tile's total, then publishes its own
// (a chain of tiles, as a single-pass scan's look-back reads them). The status word is polled
// through a plain pointer: the compiler may load it once, before the loop, and test that copy
// for ever, so the loop touches no memory and would hang on a GPU as well. With -DPLANTED_FIXED
// the poll reads through a volatile pointer, with a __threadfence() after it, and the status is
// published with a fence before it: the textbook hand-off.
#include "planted.cuh"

constexpr int kBlocks = 4;
constexpr unsigned kThreads = 32;

#ifdef PLANTED_FIXED
using StatusWord = volatile unsigned;
#else
using StatusWord = unsigned;
#endif

__global__ void chain(unsigned* status, int* totals) {
  if (threadIdx.x != 0) return;
  int before = 0;
  if (blockIdx.x > 0) {
    StatusWord* before_me = status + blockIdx.x - 1;
    while (*before_me == 0) {  // expect: deadlock
    }
#ifdef PLANTED_FIXED
    __threadfence();
#endif
    before = static_cast<volatile int*>(totals)[blockIdx.x - 1];
  }
  static_cast<volatile int*>(totals)[blockIdx.x] = before + static_cast<int>(kThreads);
  __threadfence();
  atomicExch(&status[blockIdx.x], 1u);
}

int main() {
  const planted::DeviceBuffer<unsigned> status(kBlocks);
  const planted::DeviceBuffer<int> totals(kBlocks);
  chain<<<kBlocks, kThreads>>>(status.get(), totals.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected;
  for (int b = 1; b <= kBlocks; ++b) expected.push_back(b * static_cast<int>(kThreads));
  return planted::compare(expected, totals.to_host());
}
