// A tile of several warps inside a kernel template that the file instantiates at its end (as
// NVIDIA's reduction sample does), calling a collective that CUDA gives only to tiles of at most
// 32 threads: simcc must refuse it at the call, not at the instantiation.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

template <unsigned BlockSize, unsigned TileSize>
__global__ void tile_sums(const int* in, int* out) {
  __shared__ cg::block_tile_memory<BlockSize> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  auto tile = cg::tiled_partition<TileSize>(block);
  const int sum = cg::reduce(tile, in[block.thread_rank()], cg::plus<int>());
  const int neighbour = tile.shfl_xor(sum, 1);  // expect: refused
  if (tile.thread_rank() == 0) out[tile.meta_group_rank()] = sum + neighbour;
}

template __global__ void tile_sums<256, 64>(const int*, int*);
