// A histogram whose bins nobody set to zero: cudaMalloc's memory holds garbage. On a GPU the
// fresh memory is often zero, so the program passes there; compute-sanitizer's initcheck
// reports the first read of each bin. Each thread owns one bin and counts its value in the
// whole input, so there is no race, only the missing cudaMemset.
#include "planted.cuh"

constexpr unsigned kBins = 8;
constexpr unsigned kElements = 200;

__global__ void count_values(const int* in, unsigned n, int* bins) {
  const unsigned bin = threadIdx.x;
  for (unsigned i = 0; i < n; ++i)
    if (static_cast<unsigned>(in[i]) % kBins == bin) bins[bin] += 1;  // expect: uninitialized-read
}

int main() {
  const std::vector<int> input = planted::test_input(kElements);
  const planted::DeviceBuffer<int> in(input);
  const planted::DeviceBuffer<int> bins(kBins, planted::Fill::nothing);
#ifdef PLANTED_FIXED
  PLANTED_CHECK(cudaMemset(bins.get(), 0, kBins * sizeof(int)));
#endif
  count_values<<<1, kBins>>>(in.get(), kElements, bins.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kBins, 0);
  for (int v : input) expected[static_cast<unsigned>(v) % kBins] += 1;
  return planted::compare(expected, bins.to_host());
}
