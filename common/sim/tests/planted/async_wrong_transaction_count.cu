// Warp 0 loads each tile into a shared-memory stage with a bulk asynchronous copy and announces
// the bytes the barrier's phase waits for; warp 1 doubles the tile into the output and releases
// the stage. The producer announces the size of the tile in elements, not in bytes, so the
// phase's transaction count never returns to zero: the consumers wait forever (a deadlock that
// names the barrier, its arrivals and its bytes). The fixed twin announces the copy's bytes.
#include <cuda/barrier>
#include <cuda/ptx>

#include "planted.cuh"

using Barrier = cuda::barrier<cuda::thread_scope_block>;
#ifdef __CUDACC__
// A __shared__ barrier is set up by init(), not by a constructor: nvcc's warning does not apply.
#pragma nv_diag_suppress static_var_with_dynamic_init
#endif

constexpr unsigned kTile = 128;  // ints per tile
constexpr unsigned kTiles = 2;   // tiles per block
constexpr unsigned kWarp = 32;

__global__ void double_through_a_stage(const int* in, int* out) {
  __shared__ alignas(16) int stage[kTile];
  __shared__ Barrier loaded, released;
  const unsigned warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  if (threadIdx.x == 0) {
    init(&loaded, 1);
    init(&released, kWarp);
  }
  __syncthreads();
  const unsigned first = blockIdx.x * kTiles * kTile;
#ifdef PLANTED_FIXED
  constexpr unsigned kAnnounced = sizeof stage;
#else
  constexpr unsigned kAnnounced = kTile;
#endif
  for (unsigned k = 0; k < kTiles; ++k) {
    const unsigned parity = k & 1u;
    if (warp == 0) {
      if (k > 0) released.wait_parity(parity ^ 1u);  // expect: deadlock
      if (lane == 0) {
        cuda::device::memcpy_async_tx(stage, in + first + k * kTile, cuda::aligned_size_t<16>(sizeof stage), loaded);
        static_cast<void>(cuda::device::barrier_arrive_tx(loaded, 1, kAnnounced));
      }
    } else {
      loaded.wait_parity(parity);
      for (unsigned i = lane; i < kTile; i += kWarp) out[first + k * kTile + i] = 2 * stage[i];
      static_cast<void>(released.arrive());
    }
  }
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kTiles * kTile;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  double_through_a_stage<<<kBlocks, 2 * kWarp>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = 2 * input[i];
  return planted::compare(expected, out.to_host());
}
