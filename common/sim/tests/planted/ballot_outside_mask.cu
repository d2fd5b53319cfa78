// Every lane of the warp calls __ballot_sync, but the mask names only the lower half-warp:
// lanes 16-31 call a warp intrinsic whose mask leaves them out, which CUDA leaves undefined.
// With -DPLANTED_FIXED the mask names every lane that calls.
#include "planted.cuh"

constexpr unsigned kThreads = 32;

#ifdef PLANTED_FIXED
constexpr unsigned kVoters = 0xffffffffu;
#else
constexpr unsigned kVoters = 0x0000ffffu;
#endif

// out[0] = how many of the warp's inputs are odd.
__global__ void count_odd(const int* in, int* out) {
  const unsigned votes = __ballot_sync(kVoters, in[threadIdx.x] % 2 != 0);  // expect: warp-mask
  if (threadIdx.x == 0) *out = __popc(votes);
}

int main() {
  const std::vector<int> input = planted::test_input(kThreads);
  const planted::DeviceBuffer<int> in(input), out(1);
  count_odd<<<1, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  int odd = 0;
  for (int v : input) odd += v % 2 != 0;
  return planted::compare({odd}, out.to_host());
}
