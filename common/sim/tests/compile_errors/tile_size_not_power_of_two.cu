// A tile of 48 threads: CUDA takes only powers of two up to 1024, and so does the simulator,
// at the program's call.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void tile_ranks(int* out) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<48>(block);  // expect: compile-error
  out[block.thread_rank()] = static_cast<int>(tile.thread_rank());
}

int main() {
  int* out = nullptr;
  cudaMalloc(&out, 96 * sizeof(int));
  tile_ranks<<<1, 96>>>(out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
