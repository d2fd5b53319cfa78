// An off-by-one bounds check (<= instead of <): thread n writes one element past the end of
// the buffer that cudaMalloc returned.
#include "planted.cuh"

constexpr unsigned kThreads = 128;
constexpr unsigned kElements = 100;

__global__ void iota(int* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = static_cast<int>(i);  // expect: out-of-bounds
}

int main() {
  const planted::DeviceBuffer<int> out(kElements);
  iota<<<1, kThreads>>>(out.get(), kElements);
  return planted::kernels_succeeded() ? planted::kCorrect : planted::kWrongResult;
}
