// A ring of two shared-memory stages, each loaded once with a bulk asynchronous copy and its
// barrier's transaction count; warp 1 doubles both tiles into the output once the producer says
// it has issued the copies. The consumers then poll for the phase of the wrong parity:
// try_wait_parity(1) asks for phase 1 to complete, while the copies completed phase 0 (parity 0),
// so they wait forever (had they polled before the copies landed, parity 1 would have passed at
// once and they would have read the stages early). The fixed twin waits for parity 0.
#include <cuda/barrier>
#include <cuda/ptx>

#include "planted.cuh"

using Barrier = cuda::barrier<cuda::thread_scope_block>;
#ifdef __CUDACC__
// A __shared__ barrier is set up by init(), not by a constructor: nvcc's warning does not apply.
#pragma nv_diag_suppress static_var_with_dynamic_init
#endif

constexpr unsigned kTile = 128;  // ints per tile
constexpr unsigned kStages = 2;  // one tile each
constexpr unsigned kWarp = 32;

__global__ void double_two_tiles(const int* in, int* out) {
  __shared__ alignas(16) int stages[kStages][kTile];
  __shared__ Barrier loaded[kStages], issued;
  const unsigned warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < kStages; ++s) init(&loaded[s], 1);
    init(&issued, 1);
  }
  __syncthreads();
  const unsigned first = blockIdx.x * kStages * kTile;
#ifdef PLANTED_FIXED
  constexpr unsigned kFirstPhaseParity = 0;
#else
  constexpr unsigned kFirstPhaseParity = 1;
#endif
  if (warp == 0) {
    if (lane == 0) {
      for (unsigned s = 0; s < kStages; ++s) {
        cuda::device::memcpy_async_tx(stages[s], in + first + s * kTile, cuda::aligned_size_t<16>(sizeof stages[s]), loaded[s]);
        static_cast<void>(cuda::device::barrier_arrive_tx(loaded[s], 1, sizeof stages[s]));
      }
      static_cast<void>(issued.arrive());
    }
  } else {
    issued.wait_parity(0);
    for (unsigned s = 0; s < kStages; ++s) {
      while (!cuda::ptx::mbarrier_try_wait_parity(cuda::device::barrier_native_handle(loaded[s]), kFirstPhaseParity)) {  // expect: deadlock
      }
      for (unsigned i = lane; i < kTile; i += kWarp) out[first + s * kTile + i] = 2 * stages[s][i];
    }
  }
}

int main() {
  constexpr unsigned kBlocks = 2;
  return planted::check_doubled(kBlocks * kStages * kTile,
                                [](const int* in, int* out) { double_two_tiles<<<kBlocks, 2 * kWarp>>>(in, out); });
}
