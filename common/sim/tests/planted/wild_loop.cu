// A loop bound read out of bounds: the count of the block before is read at blockIdx.x - 1
// without checking for block 0, and the fill pattern of fresh memory found there makes the
// loop run billions of times, every iteration out of bounds. On a GPU the kernel stops at
// the first illegal address; the simulator reports the read, and stops the block after a
// bounded number of out-of-bounds accesses instead of running the loop to its end. With
// -DPLANTED_FIXED block 0 starts from 0.
#include "planted.cuh"

constexpr unsigned kBlocks = 4;

__global__ void copy_previous(const unsigned* counts, int* out) {
#ifdef PLANTED_FIXED
  const unsigned count = blockIdx.x > 0 ? counts[blockIdx.x - 1] : 0;
#else
  const unsigned count = counts[blockIdx.x - 1];  // expect: out-of-bounds
#endif
  for (unsigned i = 0; i < count; ++i) out[blockIdx.x - i] += 1;  // expect: out-of-bounds
}

int main() {
  const planted::DeviceBuffer<unsigned> counts(std::vector<unsigned>(kBlocks, 1));
  const planted::DeviceBuffer<int> out(kBlocks);
  copy_previous<<<kBlocks, 1>>>(counts.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kBlocks, 1);
  expected[0] = 0;
  return planted::compare(expected, out.to_host());
}
