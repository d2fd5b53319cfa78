// A tile of several warps (tiled_partition<512> with block_tile_memory, as NVIDIA's reduction
// sample writes it) in a kernel template instantiated by the host's launch (through the launch
// wrapper and the standard library's invoke machinery): refused at the program's call.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

template <unsigned BlockSize>
__global__ void half_block_sums(const int* in, int* out) {
  __shared__ cg::block_tile_memory<BlockSize> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<512> half = cg::tiled_partition<512>(block);  // expect: compile-error
  const int value = in[block.thread_rank()];
  half.sync();
  if (half.thread_rank() == 0) out[half.meta_group_rank()] = value;
}

int main() {
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 1024 * sizeof(int));
  cudaMalloc(&out, 2 * sizeof(int));
  half_block_sums<1024><<<1, 1024>>>(in, out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
