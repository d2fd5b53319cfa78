// A warp-synchronous scan through volatile shared memory, written as if the 32 lanes ran in
// lockstep. Since Volta they do not: lane i + offset may read s[i] before or after lane i has
// overwritten it. volatile keeps the loads and stores in memory but orders nothing; with
// -DPLANTED_FIXED, __syncwarp() separates the reads of each step from its writes.
#include "planted.cuh"

constexpr unsigned kWarp = 32;

__global__ void warp_scan(const int* in, int* out) {
  __shared__ int buffer[kWarp];
  volatile int* s = buffer;
  const unsigned lane = threadIdx.x;
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

int main() {
  const std::vector<int> input = planted::test_input(kWarp);
  const planted::DeviceBuffer<int> in(input), out(kWarp);
  warp_scan<<<1, kWarp>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return planted::compare(planted::inclusive_scan(input), out.to_host());
}
