// A ring of two shared-memory stages: warp 0 loads tile k into stage k % 2 with a bulk
// asynchronous copy once the stage's previous tile was released; warp 1 doubles each tile in
// place and stores it with one bulk copy from shared to global memory, issued by lane 0, then
// releases the stage. Lane 0 releases it before the store has read it (its wait_group_read comes
// only at the end), so the next copy into the stage may change what the store still reads. The
// report names the release and the store, and cp_async_bulk_wait_group_read. The fixed twin waits
// for the store's reads before the release.
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
        cuda::device::memcpy_async_tx(stage, in + first + k * kTile, cuda::aligned_size_t<16>(sizeof stages[s]), loaded[s]);
        static_cast<void>(cuda::device::barrier_arrive_tx(loaded[s], 1, sizeof stages[s]));
      }
    } else {
      loaded[s].wait_parity(parity);
      for (unsigned i = lane; i < kTile; i += kWarp) stage[i] *= 2;
      cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);  // the lanes' writes, before the store reads them
      __syncwarp();
      if (lane == 0) {
        cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared, out + first + k * kTile, stage, sizeof stages[s]);  // expect: race
        cuda::ptx::cp_async_bulk_commit_group();
#ifdef PLANTED_FIXED
        cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
#endif
      }
      static_cast<void>(released[s].arrive());
    }
  }
  if (warp == 1 && lane == 0) cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});  // expect: race
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
