// Inline PTX is GPU machine code: the CPU simulator cannot run it and must refuse to build it,
// naming this line. (nvcc builds this file.)
#include <cuda_runtime.h>

__device__ unsigned lane_id() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));  // expect: compile-error
  return lane;
}

__global__ void write_lane_ids(unsigned* out) { out[threadIdx.x] = lane_id(); }

int main() {
  unsigned* out = nullptr;
  cudaMalloc(&out, 32 * sizeof(unsigned));
  write_lane_ids<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  cudaFree(out);
  return 0;
}
