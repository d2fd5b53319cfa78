// The program's kernel and launch live in header_kernel.cuh: a block sum with a missing
// barrier, and its fixed twin.
#include <numeric>

#include "header_kernel.cuh"

int main() {
  const std::vector<int> input = planted::test_input(kSumBlockSize);
  const planted::DeviceBuffer<int> in(input), out(1);
  launch_block_sum(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return planted::compare({std::accumulate(input.begin(), input.end(), 0)}, out.to_host());
}
