// Each block adds the total of the block before it, read at blockIdx.x - 1 without checking
// for block 0: in unsigned arithmetic that index is 4294967295, 16 GiB past the buffer, far
// outside every buffer. A GPU faults there; the simulator reports the line and goes on.
#include "planted.cuh"

constexpr unsigned kBlocks = 4;

__global__ void add_previous_total(const int* totals, int* carried) {
  const unsigned previous = blockIdx.x - 1;
#ifdef PLANTED_FIXED
  carried[blockIdx.x] = blockIdx.x > 0 ? totals[previous] : 0;
#else
  carried[blockIdx.x] = totals[previous];  // expect: out-of-bounds
#endif
}

int main() {
  const std::vector<int> input = planted::test_input(kBlocks);
  const planted::DeviceBuffer<int> totals(input), carried(kBlocks);
  add_previous_total<<<kBlocks, 1>>>(totals.get(), carried.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected{0};
  expected.insert(expected.end(), input.begin(), input.end() - 1);
  return planted::compare(expected, carried.to_host());
}
