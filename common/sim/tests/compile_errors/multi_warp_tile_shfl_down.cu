// shfl_down on a tile of several warps, in a kernel template instantiated by the host's launch:
// CUDA gives shfl_up, shfl_down and shfl_xor only to tiles of at most 32 threads, so the build
// fails at the program's call.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

template <unsigned BlockSize>
__global__ void tile_sums(const int* in, int* out) {
  __shared__ cg::block_tile_memory<BlockSize> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<256> tile = cg::tiled_partition<256>(block);
  int value = in[block.thread_rank()];
  for (int offset = 128; offset > 0; offset /= 2) value += tile.shfl_down(value, offset);  // expect: compile-error
  if (tile.thread_rank() == 0) out[tile.meta_group_rank()] = value;
}

int main() {
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 1024 * sizeof(int));
  cudaMalloc(&out, 4 * sizeof(int));
  tile_sums<1024><<<1, 1024>>>(in, out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
