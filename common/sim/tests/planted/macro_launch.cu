// Launches written through macros, as sample code and benchmark suites do: the rewrite turns the
// launch inside each #define into a simulator call, and the program runs clean.
#include "planted.cuh"

constexpr unsigned kThreads = 128;
constexpr unsigned kElements = 1000;

#define BLOCKS_FOR(n) (((n) + kThreads - 1) / kThreads)
#define LAUNCH_OVER(kernel, n, ...) kernel<<<BLOCKS_FOR(n), kThreads>>>(__VA_ARGS__)
#define LAUNCH_ONE_THREAD(kernel, ...) \
  kernel<<<1,                          \
           1>>>(__VA_ARGS__)

template <class T, int Scale>
__global__ void scale(const T* in, T* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * Scale;
}

__global__ void set_first(int* out) { out[0] = -1; }

int main() {
  const std::vector<int> input = planted::test_input(kElements);
  const planted::DeviceBuffer<int> in(input), out(kElements);
  LAUNCH_OVER((scale<int, 3>), kElements, in.get(), out.get(), kElements);
  LAUNCH_ONE_THREAD(set_first, out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kElements);
  for (unsigned i = 0; i < kElements; ++i) expected[i] = input[i] * 3;
  expected[0] = -1;
  return planted::compare(expected, out.to_host());
}
