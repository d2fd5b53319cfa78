// A ring of two shared-memory stages: warp 0 loads tile k into stage k % 2 with a bulk
// asynchronous copy once the consumers released the stage's previous tile; warp 1 doubles each
// tile into the output and releases its stage. The consumers wait for the parity of the stage's
// previous use (parity ^ 1): the wait returns at once, for a phase they had already seen complete
// (or, at a stage's first use, the one before the first, which PTX counts as complete), and the
// consumers read the stage while the copy writes it (and before any copy wrote it); a later use
// then waits for a phase that never comes. The reports name the wait and the parity this use
// needed. The fixed twin waits for the parity of this use.
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
constexpr unsigned kStages = 2;
constexpr unsigned kWarp = 32;

__device__ void wait_for(Barrier& barrier, unsigned parity) {
  while (!cuda::ptx::mbarrier_try_wait_parity(cuda::device::barrier_native_handle(barrier), parity)) {  // expect: deadlock
  }
}

__global__ void double_through_a_ring(const int* in, int* out) {
  __shared__ alignas(16) int stages[kStages][kTile];
  __shared__ Barrier loaded[kStages], released[kStages];
  const unsigned warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  if (threadIdx.x == 0) {
    for (unsigned s = 0; s < kStages; ++s) {
      init(&loaded[s], 1);
      init(&released[s], kWarp);
    }
  }
  __syncthreads();
  const unsigned first = blockIdx.x * kTiles * kTile;
  for (unsigned k = 0; k < kTiles; ++k) {
    const unsigned s = k % kStages, parity = (k / kStages) & 1u;
    int* const stage = stages[s];
    if (warp == 0) {
      if (k >= kStages) wait_for(released[s], parity ^ 1u);  // the stage's previous use
      if (lane == 0) {
        cuda::device::memcpy_async_tx(stage, in + first + k * kTile, cuda::aligned_size_t<16>(sizeof stages[s]), loaded[s]);  // expect: race
        static_cast<void>(cuda::device::barrier_arrive_tx(loaded[s], 1, sizeof stages[s]));
      }
    } else {
#ifdef PLANTED_FIXED
      wait_for(loaded[s], parity);
#else
      wait_for(loaded[s], parity ^ 1u);
#endif
      for (unsigned i = lane; i < kTile; i += kWarp) out[first + k * kTile + i] = 2 * stage[i];  // expect: race, uninitialized-read
      static_cast<void>(released[s].arrive());
    }
  }
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kTiles * kTile;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  double_through_a_ring<<<kBlocks, 2 * kWarp>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = 2 * input[i];
  return planted::compare(expected, out.to_host());
}
