// A 16-byte value shuffled in a tile of 128 threads: CUDA shuffles at most 8 bytes in a tile of
// several warps (32 in a tile of at most 32); the build fails at the program's call.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

struct Pair {
  double low, high;
};

__global__ void broadcast_first(const Pair* in, Pair* out) {
  auto tile = cg::tiled_partition<128>(cg::this_thread_block());
  out[threadIdx.x] = tile.shfl(in[threadIdx.x], 0);  // expect: compile-error
}

int main() {
  Pair *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 128 * sizeof(Pair));
  cudaMalloc(&out, 128 * sizeof(Pair));
  broadcast_first<<<1, 128>>>(in, out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
