// A built-in variable read in host code: nvcc rejects it, and the simulator, which compiles both
// sides with the host compiler, names the line of the use and ends the program. The kernel reads
// the same variables the ordinary way first.
#include <cstdio>

__global__ void fill_with_block_size(unsigned* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = blockDim.x; }

int main() {
  unsigned* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(unsigned));
  fill_with_block_size<<<2, 32>>>(out);
  unsigned first = 0;
  cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost);
  std::printf("kernel saw a block of %u threads\n", first);
  std::fflush(stdout);
  std::printf("host reads %u\n", blockDim.x);  // expect: used-outside-a-kernel
  return 0;
}
