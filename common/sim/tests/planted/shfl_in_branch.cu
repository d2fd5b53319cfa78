// A warp reduction in which the lower half of the warp adds the upper half's values: the shuffle
// sits inside the condition, so only lanes 0-15 call it, with a mask that names all 32 lanes, and
// lanes 16-31 exit while the others wait for them. The report says to call the shuffle outside
// the condition, with every lane of the mask (not to narrow the mask). The fixed twin does.
#include "planted.cuh"

constexpr unsigned kWarp = 32;
constexpr unsigned kFullMask = 0xffffffffu;

__global__ void pair_halves(const int* in, int* out) {
  const unsigned lane = threadIdx.x;
  const int v = in[blockIdx.x * kWarp + lane];
#ifdef PLANTED_FIXED
  const int upper = __shfl_down_sync(kFullMask, v, kWarp / 2);
  if (lane < kWarp / 2) out[blockIdx.x * kWarp / 2 + lane] = v + upper;
#else
  if (lane < kWarp / 2) out[blockIdx.x * kWarp / 2 + lane] = v + __shfl_down_sync(kFullMask, v, kWarp / 2);  // expect: warp-mask
#endif
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kWarp;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n / 2);
  pair_halves<<<kBlocks, kWarp>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n / 2);
  for (unsigned b = 0; b < kBlocks; ++b)
    for (unsigned l = 0; l < kWarp / 2; ++l) expected[b * kWarp / 2 + l] = input[b * kWarp + l] + input[b * kWarp + l + kWarp / 2];
  return planted::compare(expected, out.to_host());
}
