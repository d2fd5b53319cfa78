// Warp 0 loads tile after tile into one shared-memory stage with bulk asynchronous copies, each
// tile with a barrier of its own that completes on the copy's bytes; warp 1 doubles each tile
// into the output and releases the stage (a barrier per tile too). The producer does not wait
// for the release before it copies the next tile over the one being read: a race between the
// copy and the reads of the tile before. The fixed twin waits for the release.
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

__global__ void double_through_one_stage(const int* in, int* out) {
  __shared__ alignas(16) int stage[kTile];
  __shared__ Barrier loaded[kTiles], released[kTiles];
  const unsigned warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  if (threadIdx.x == 0) {
    for (unsigned k = 0; k < kTiles; ++k) {
      init(&loaded[k], 1);
      init(&released[k], kWarp);
    }
  }
  for (unsigned i = threadIdx.x; i < kTile; i += blockDim.x) stage[i] = 0;
  __syncthreads();
  const unsigned first = blockIdx.x * kTiles * kTile;
  for (unsigned k = 0; k < kTiles; ++k) {
    if (warp == 0) {
#ifdef PLANTED_FIXED
      if (k > 0) released[k - 1].wait_parity(0);
#endif
      if (lane == 0) {
        cuda::device::memcpy_async_tx(stage, in + first + k * kTile, cuda::aligned_size_t<16>(sizeof stage), loaded[k]);  // expect: race
        static_cast<void>(cuda::device::barrier_arrive_tx(loaded[k], 1, sizeof stage));
      }
    } else {
      loaded[k].wait_parity(0);
      for (unsigned i = lane; i < kTile; i += kWarp) out[first + k * kTile + i] = 2 * stage[i];  // expect: race
      static_cast<void>(released[k].arrive());
    }
  }
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kTiles * kTile;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  double_through_one_stage<<<kBlocks, 2 * kWarp>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = 2 * input[i];
  return planted::compare(expected, out.to_host());
}
