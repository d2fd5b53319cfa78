// Warp 0 loads each tile of a block with one bulk asynchronous copy into a shared-memory stage
// guarded by a barrier with a transaction count; warp 1 doubles the stage into the output and
// releases it. The consumer reads the stage before it waits for the barrier's phase, so the
// copy may not have landed: a race between the copy and the read. The fixed twin waits first.
#include <cuda/barrier>
#include <cuda/ptx>

#include "planted.cuh"

using Barrier = cuda::barrier<cuda::thread_scope_block>;
#ifdef __CUDACC__
// A __shared__ barrier is set up by init(), not by a constructor: nvcc's warning does not apply.
#pragma nv_diag_suppress static_var_with_dynamic_init
#endif

constexpr unsigned kTile = 128;  // ints per tile
constexpr unsigned kTiles = 4;   // tiles per block
constexpr unsigned kWarp = 32;

__global__ void double_through_a_stage(const int* in, int* out) {
  __shared__ alignas(16) int stage[kTile];
  __shared__ Barrier loaded, released;
  const unsigned warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  if (threadIdx.x == 0) {
    init(&loaded, 1);
    init(&released, kWarp);
  }
  for (unsigned i = threadIdx.x; i < kTile; i += blockDim.x) stage[i] = 0;
  __syncthreads();
  const unsigned first = blockIdx.x * kTiles * kTile;
  for (unsigned k = 0; k < kTiles; ++k) {
    const unsigned parity = k & 1u;
    if (warp == 0) {
      if (k > 0) {
        while (!cuda::ptx::mbarrier_try_wait_parity(cuda::device::barrier_native_handle(released), parity ^ 1u)) {
        }
      }
      if (lane == 0) {
        cuda::device::memcpy_async_tx(stage, in + first + k * kTile, cuda::aligned_size_t<16>(sizeof stage), loaded);  // expect: race
        static_cast<void>(cuda::device::barrier_arrive_tx(loaded, 1, sizeof stage));
      }
    } else {
#ifdef PLANTED_FIXED
      loaded.wait_parity(parity);
#endif
      for (unsigned i = lane; i < kTile; i += kWarp) out[first + k * kTile + i] = 2 * stage[i];  // expect: race
#ifndef PLANTED_FIXED
      loaded.wait_parity(parity);
#endif
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
