// A warp-specialized kernel: warp 0 loads tile after tile into one shared-memory stage with bulk
// asynchronous copies, once warp 1 has released the stage; warp 1 adds to each element its right
// neighbour within the tile, through a scratch array its lanes share. Warp 1 orders its lanes'
// scratch writes before their reads with __syncthreads(), which warp 0 never reaches: it waits on
// the stage's barrier for warp 1, and warp 1 waits at the __syncthreads() for warp 0. The report
// names the barrier that only some warps reach, and where the others are, before the deadlock.
// The fixed twin syncs the warp's own lanes (__syncwarp()).
#include <cuda/barrier>
#include <cuda/ptx>

#include "planted.cuh"

using Barrier = cuda::barrier<cuda::thread_scope_block>;
#ifdef __CUDACC__
// A __shared__ barrier is set up by init(), not by a constructor: nvcc's warning does not apply.
#pragma nv_diag_suppress static_var_with_dynamic_init
#endif

constexpr unsigned kTile = 32;  // ints per tile: one per lane
constexpr unsigned kTiles = 4;  // tiles per block
constexpr unsigned kWarp = 32;

__global__ void add_right_neighbours(const int* in, int* out) {
  __shared__ alignas(16) int stage[kTile];
  __shared__ int scratch[kTile];
  __shared__ Barrier loaded, released;
  const unsigned warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  if (threadIdx.x == 0) {
    init(&loaded, 1);
    init(&released, kWarp);
  }
  __syncthreads();
  const unsigned first = blockIdx.x * kTiles * kTile;
  for (unsigned k = 0; k < kTiles; ++k) {
    const unsigned parity = k & 1u;
    if (warp == 0) {
      if (k > 0) released.wait_parity(parity ^ 1u);  // expect: barrier-divergence, deadlock
      if (lane == 0) {
        cuda::device::memcpy_async_tx(stage, in + first + k * kTile, cuda::aligned_size_t<16>(sizeof stage), loaded);
        static_cast<void>(cuda::device::barrier_arrive_tx(loaded, 1, sizeof stage));
      }
    } else {
      loaded.wait_parity(parity);
      scratch[lane] = stage[lane];
#ifdef PLANTED_FIXED
      __syncwarp();
#else
      __syncthreads();  // expect: barrier-divergence
#endif
      out[first + k * kTile + lane] = scratch[lane] + (lane + 1 < kTile ? scratch[lane + 1] : 0);
      __syncwarp();  // every lane has read the scratch before the next tile's writes
      static_cast<void>(released.arrive());
    }
  }
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kTiles * kTile;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  add_right_neighbours<<<kBlocks, 2 * kWarp>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = input[i] + ((i + 1) % kTile != 0 ? input[i + 1] : 0);
  return planted::compare(expected, out.to_host());
}
