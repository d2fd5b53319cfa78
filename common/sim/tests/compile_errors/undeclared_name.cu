// A compile error after the constructs the simulator rewrites (__shared__, a kernel launch
// split over lines): the compiler must still name this file and the line of the error.
#include <cuda_runtime.h>

__global__ void copy(const int* in, int* out) {
  __shared__ int tile[32];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[31 - threadIdx.x];
}

int main() {
  int* data = nullptr;
  cudaMalloc(&data, 64 * sizeof(int));
  copy<<<1,
         32>>>(data,
               data + 32);
  const int status = launch_status;  // expect: compile-error
  cudaFree(data);
  return status;
}
