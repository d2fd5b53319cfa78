// A ring of one shared-memory stage that two tiles pass through: lane 0 of warp 0 loads each tile
// with a bulk asynchronous copy, warp 1 doubles it into the output and releases the stage for the
// next tile. `released` counts the 32 lanes of warp 1, but only its lane 0 arrives: the phase
// never completes, and the producer waits for it forever. The deadlock names the phase with 1 of
// its 32 arrivals, the thread that came and the line it came from. The fixed twin arrives with
// every lane.
#include <cuda/barrier>
#include <cuda/ptx>

#include "planted.cuh"

using Barrier = cuda::barrier<cuda::thread_scope_block>;
#ifdef __CUDACC__
// A __shared__ barrier is set up by init(), not by a constructor: nvcc's warning does not apply.
#pragma nv_diag_suppress static_var_with_dynamic_init
#endif

constexpr unsigned kTile = 128;  // ints per tile
constexpr unsigned kTiles = 2;   // per block, one after the other through the stage
constexpr unsigned kWarp = 32;

__global__ void double_through_one_stage(const int* in, int* out) {
  __shared__ alignas(16) int stage[kTile];
  __shared__ Barrier loaded, released;
  const unsigned warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  if (threadIdx.x == 0) {
    init(&loaded, 1);
    init(&released, kWarp);  // every lane of warp 1, once per tile
  }
  __syncthreads();
  const unsigned first = blockIdx.x * kTiles * kTile;
  for (unsigned k = 0; k < kTiles; ++k) {
    if (warp == 0) {
      if (lane == 0) {
        if (k > 0) released.wait_parity((k - 1) & 1u);  // expect: deadlock
        cuda::device::memcpy_async_tx(stage, in + first + k * kTile, cuda::aligned_size_t<16>(sizeof stage), loaded);
        static_cast<void>(cuda::device::barrier_arrive_tx(loaded, 1, sizeof stage));
      }
    } else {
      loaded.wait_parity(k & 1u);
      for (unsigned i = lane; i < kTile; i += kWarp) out[first + k * kTile + i] = 2 * stage[i];
#ifdef PLANTED_FIXED
      static_cast<void>(released.arrive());
#else
      if (lane == 0) static_cast<void>(released.arrive());
#endif
    }
  }
}

int main() {
  constexpr unsigned kBlocks = 2;
  return planted::check_doubled(kBlocks * kTiles * kTile,
                                [](const int* in, int* out) { double_through_one_stage<<<kBlocks, 2 * kWarp>>>(in, out); });
}
