// Each element plus its neighbour's (the lane beside it, i ^ 1), for 33 elements in blocks of 32:
// the threads past the end return before the shuffle, whose mask names the whole warp, so in the
// last block lane 0 makes the call alone while lanes 1-31 have exited. The report names the one
// lane as "lane 0" and the ones that exited as "lanes 1-31". The fixed twin lets every lane make
// the call (a thread past the end with 0) and guards only the store.
#include "planted.cuh"

constexpr unsigned kWarp = 32;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr unsigned kElements = kWarp + 1;

__global__ void pair_sums(const int* in, int* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef PLANTED_FIXED
  const int v = i < n ? in[i] : 0;
  const int neighbour = __shfl_xor_sync(kFullMask, v, 1);
  if (i < n) out[i] = v + neighbour;
#else
  if (i >= n) return;
  const int v = in[i];
  out[i] = v + __shfl_xor_sync(kFullMask, v, 1);  // expect: warp-mask
#endif
}

int main() {
  const std::vector<int> input = planted::test_input(kElements);
  const planted::DeviceBuffer<int> in(input), out(kElements);
  pair_sums<<<(kElements + kWarp - 1) / kWarp, kWarp>>>(in.get(), out.get(), kElements);
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kElements);
  for (unsigned i = 0; i < kElements; ++i) expected[i] = input[i] + ((i ^ 1) < kElements ? input[i ^ 1] : 0);
  return planted::compare(expected, out.to_host());
}
