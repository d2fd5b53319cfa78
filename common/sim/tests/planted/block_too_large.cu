// A block of 1025 threads: one more than any CUDA device allows. The launch fails before the
// kernel runs, and cudaGetLastError() says why (CUDA 13.0 on an H100 and the simulator say
// cudaErrorInvalidValue; older toolkits say cudaErrorInvalidConfiguration).
#include "planted.cuh"

constexpr unsigned kThreads = 1025;

__global__ void fill(int* out) { out[threadIdx.x] = 1; }

int main() {
  const planted::DeviceBuffer<int> out(kThreads);
  fill<<<1, kThreads>>>(out.get());  // expect: invalid-launch
  const cudaError_t status = cudaGetLastError();
  std::printf("launch status: %s\n", cudaGetErrorName(status));
  return status != cudaSuccess ? planted::kCorrect : planted::kWrongResult;
}
