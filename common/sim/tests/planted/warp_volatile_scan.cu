// A warp-synchronous scan through volatile shared memory, written as if the 32 lanes ran in
// lockstep. Since Volta they do not: lane i + offset may read s[i] before or after lane i has
// overwritten it. volatile keeps the loads and stores in memory but orders nothing; with
// -DPLANTED_FIXED, __syncwarp() separates the reads of each step from its writes. Optional
// argument: the number of blocks (default 1), each scanning its own 32 elements; run with
// SCANLAB_SIM_RESIDENT_BLOCKS=1, every block reuses the threads of the one before it.
#include <algorithm>

#include "planted.cuh"

constexpr unsigned kWarp = 32;

__global__ void warp_scan(const int* in, int* out) {
  __shared__ int buffer[kWarp];
  volatile int* s = buffer;
  const unsigned lane = threadIdx.x;
  in += blockIdx.x * kWarp;
  out += blockIdx.x * kWarp;
  s[lane] = in[lane];
  __syncwarp();
  for (unsigned offset = 1; offset < kWarp; offset *= 2) {
    const int left = lane >= offset ? s[lane - offset] : 0;  // expect: race
#ifdef PLANTED_FIXED
    __syncwarp();
#endif
    s[lane] += left;  // expect: race
#ifdef PLANTED_FIXED
    __syncwarp();
#endif
  }
  out[lane] = s[lane];
}

int main(int argc, char** argv) {
  const unsigned blocks = planted::argument(argc, argv, 1, 1);
  const std::vector<int> input = planted::test_input(blocks * kWarp);
  const planted::DeviceBuffer<int> in(input), out(blocks * kWarp);
  warp_scan<<<blocks, kWarp>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(input.size());
  for (unsigned b = 0; b < blocks; ++b) {
    const std::vector<int> section(input.begin() + b * kWarp, input.begin() + (b + 1) * kWarp);
    const std::vector<int> scanned = planted::inclusive_scan(section);
    std::copy(scanned.begin(), scanned.end(), expected.begin() + b * kWarp);
  }
  return planted::compare(expected, out.to_host());
}
