// A cuda::barrier of device scope: the simulator runs barrier objects of block scope in shared
// memory only, and says so at the program's line instead of inside a header.
#include <cuda/barrier>

__global__ void meet(int* data) {
  __shared__ cuda::barrier<cuda::thread_scope_device> everyone;  // expect: compile-error
  data[threadIdx.x] = 1;
}

int main() { return 0; }
