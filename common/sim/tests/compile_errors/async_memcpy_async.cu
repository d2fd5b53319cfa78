// cuda::memcpy_async (a copy tracked by a barrier's phase, without a transaction count): not
// simulated, and said so at the program's line instead of inside a header.
#include <cuda/barrier>

using Barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void stage(const int* in, int* out) {
  __shared__ int tile[32];
  __shared__ Barrier loaded;
  if (threadIdx.x == 0) init(&loaded, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(tile + threadIdx.x, in + threadIdx.x, sizeof(int), loaded);  // expect: compile-error
  loaded.arrive_and_wait();
  out[threadIdx.x] = tile[threadIdx.x];
}

int main() { return 0; }
