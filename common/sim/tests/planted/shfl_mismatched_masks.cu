// The two half-warps call the same __shfl_sync with different masks: lanes 0-15 name only
// themselves, lanes 16-31 name the whole warp. All lanes that take part in a shuffle must
// pass the same mask.
#include "planted.cuh"

constexpr unsigned kThreads = 32;
constexpr unsigned kHalfWarp = 16;

// Every lane receives lane 0's value.
__global__ void broadcast_first(const int* in, int* out) {
  const unsigned lane = threadIdx.x % warpSize;
  const unsigned mask = lane < kHalfWarp ? 0x0000ffffu : 0xffffffffu;
  out[threadIdx.x] = __shfl_sync(mask, in[threadIdx.x], 0);  // expect: warp-mask
}

int main() {
  const std::vector<int> input = planted::test_input(kThreads);
  const planted::DeviceBuffer<int> in(input), out(kThreads);
  broadcast_first<<<1, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return planted::compare(std::vector<int>(kThreads, input[0]), out.to_host());
}
