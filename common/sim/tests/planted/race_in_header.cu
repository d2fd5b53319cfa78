// Each thread adds its right neighbour's element, through a function of the included header
// (plus_neighbour) that races: the racing lines are the header's, and the block's last barrier is
// this file's. The report says the barrier is in the file that includes the header, not in code
// the header includes. The fixed twin's barrier is in the header (race_in_header.cuh).
#include "planted.cuh"

#include "race_in_header.cuh"

constexpr unsigned kThreads = 128;

__global__ void add_neighbour(const int* in, int* out) {
  __shared__ int stage[kThreads];
  stage[threadIdx.x] = 0;
  __syncthreads();  // before plus_neighbour: its neighbour read too early sees 0, not garbage
  out[threadIdx.x] = plus_neighbour<kThreads>(stage, in[threadIdx.x]);
}

int main() {
  const std::vector<int> input = planted::test_input(kThreads);
  const planted::DeviceBuffer<int> in(input), out(kThreads);
  add_neighbour<<<1, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) expected[i] = input[i] + input[(i + 1) % kThreads];
  return planted::compare(expected, out.to_host());
}
