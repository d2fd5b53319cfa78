// ballot on a tile of 64 threads: its result has one bit a thread, so CUDA gives it only to
// tiles of at most 32 threads; the build fails at the program's call.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void count_positive(const int* in, unsigned* out) {
  auto tile = cg::tiled_partition<64>(cg::this_thread_block());
  const unsigned votes = tile.ballot(in[threadIdx.x] > 0);  // expect: compile-error
  if (tile.thread_rank() == 0) out[tile.meta_group_rank()] = __popc(votes);
}

int main() {
  int* in = nullptr;
  unsigned* out = nullptr;
  cudaMalloc(&in, 128 * sizeof(int));
  cudaMalloc(&out, 2 * sizeof(unsigned));
  count_positive<<<1, 128>>>(in, out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
