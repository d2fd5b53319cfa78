// A ring of two shared-memory stages: warp 0 loads tile k into stage k % 2 with a bulk
// asynchronous copy (its barrier completes on the copy's bytes) once the consumers released the
// stage's previous tile; warp 1 doubles each tile into the output and releases its stage. The
// consumers release a stage before they have read it, one phase early, so the producer's next
// copy into it races with their reads. The fixed twin releases the stage after reading it.
#include <cuda/barrier>
#include <cuda/ptx>

#include "planted.cuh"

using Barrier = cuda::barrier<cuda::thread_scope_block>;
#ifdef __CUDACC__
// A __shared__ barrier is set up by init(), not by a constructor: nvcc's warning does not apply.
#pragma nv_diag_suppress static_var_with_dynamic_init
#endif

constexpr unsigned kTile = 128;  // ints per tile
constexpr unsigned kTiles = 8;   // tiles per block
constexpr unsigned kStages = 2;
constexpr unsigned kWarp = 32;

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
      if (k >= kStages) released[s].wait_parity(parity ^ 1u);  // the stage's previous use
      if (lane == 0) {
        cuda::device::memcpy_async_tx(stage, in + first + k * kTile, cuda::aligned_size_t<16>(sizeof stages[s]), loaded[s]);  // expect: race
        static_cast<void>(cuda::device::barrier_arrive_tx(loaded[s], 1, sizeof stages[s]));
      }
    } else {
      loaded[s].wait_parity(parity);
#ifndef PLANTED_FIXED
      static_cast<void>(released[s].arrive());
#endif
      for (unsigned i = lane; i < kTile; i += kWarp) out[first + k * kTile + i] = 2 * stage[i];  // expect: race
#ifdef PLANTED_FIXED
      static_cast<void>(released[s].arrive());
#endif
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
