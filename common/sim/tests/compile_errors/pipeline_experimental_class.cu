// The class nvcuda::experimental::pipeline of <cuda_pipeline.h>, which CUDA keeps for old code:
// the simulator runs the primitives and cuda::pipeline instead, and says so at the program's line.
#include <cuda_pipeline.h>

__global__ void stage(const int* in, int* out) {
  __shared__ alignas(16) int tile[64];
  nvcuda::experimental::pipeline pipe;  // expect: compile-error
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(int));
  pipe.commit();
  pipe.wait_prior<0>();
  out[threadIdx.x] = tile[threadIdx.x];
}

int main() { return 0; }
