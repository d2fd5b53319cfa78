// Shifting a tile by one place without a bounds check: the last thread writes one element
// past the end of the __shared__ array.
#include "planted.cuh"

constexpr unsigned kThreads = 64;

__global__ void shift_right(const int* in, int* out) {
  __shared__ int tile[kThreads];
  const unsigned i = threadIdx.x;
  if (i == 0) tile[0] = 0;
  tile[i + 1] = in[i];  // expect: out-of-bounds
  __syncthreads();
  out[i] = tile[i];
}

int main() {
  const std::vector<int> input = planted::test_input(kThreads);
  const planted::DeviceBuffer<int> in(input), out(kThreads);
  shift_right<<<1, kThreads>>>(in.get(), out.get());
  return planted::kernels_succeeded() ? planted::kCorrect : planted::kWrongResult;
}
