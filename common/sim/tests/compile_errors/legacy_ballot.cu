// A warp vote written as before CUDA 9, without a mask: the simulator names the removed
// intrinsic and its replacement at this file's line, not inside its own headers.
#include <cuda_runtime.h>

__global__ void count_positive(const int* in, int* out) {
  const unsigned votes = __ballot(in[threadIdx.x] > 0);  // expect: compile-error
  if (threadIdx.x == 0) *out = __popc(votes);
}

int main() {
  int* data = nullptr;
  cudaMalloc(&data, 33 * sizeof(int));
  count_positive<<<1, 32>>>(data, data + 32);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
