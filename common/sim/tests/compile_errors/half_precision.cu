// A CUDA feature the simulator does not run (half precision, a header of the toolkit): the
// build stops at the program's #include with the feature named, not inside the header.
#include <cuda_fp16.h>  // expect: compile-error

__global__ void halve(__half* values) { values[threadIdx.x] = __hmul(values[threadIdx.x], __float2half(0.5f)); }

int main() { return 0; }
