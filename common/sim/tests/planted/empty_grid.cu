// A scan of an empty input launched anyway: (n + kThreads - 1) / kThreads blocks is a grid of 0
// blocks for n = 0, which CUDA refuses (cudaErrorInvalidValue) instead of running nothing. The
// fixed twin launches only when there is work.
#include "planted.cuh"

constexpr unsigned kThreads = 256;

__global__ void fill(int* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 1;
}

int main() {
  const unsigned n = 0;
  const planted::DeviceBuffer<int> out(1);
#ifdef PLANTED_FIXED
  if (n > 0)
#endif
    fill<<<(n + kThreads - 1) / kThreads, kThreads>>>(out.get(), n);  // expect: invalid-launch
  const cudaError_t status = cudaGetLastError();
  std::printf("launch status: %s\n", cudaGetErrorName(status));
#ifdef PLANTED_FIXED
  return status == cudaSuccess ? planted::kCorrect : planted::kWrongResult;
#else
  return status != cudaSuccess ? planted::kCorrect : planted::kWrongResult;
#endif
}
