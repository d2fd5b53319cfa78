// One warp doubles a tile into a shared-memory staging buffer and stores it to global memory
// with one bulk asynchronous copy. Every lane issues the copy (the lane test around it is
// missing), so the tile is copied 32 times, each lane's copy writing the same bytes: the report
// says to issue it from one lane, not to put a __syncwarp() between the lanes' copies. The fixed
// twin issues it from lane 0.
#include <cuda/ptx>

#include "planted.cuh"

constexpr unsigned kTile = 128;  // ints per tile
constexpr unsigned kWarp = 32;

__global__ void double_tiles(const int* in, int* out) {
  __shared__ alignas(16) int staged[kTile];
  const unsigned lane = threadIdx.x;
  const unsigned first = blockIdx.x * kTile;
  for (unsigned i = lane; i < kTile; i += kWarp) staged[i] = 2 * in[first + i];
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);  // the lanes' writes, before the copy reads them
  __syncwarp();
#ifdef PLANTED_FIXED
  if (lane == 0) {
#else
  {
#endif
    cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared, out + first, staged, sizeof staged);  // expect: race
    cuda::ptx::cp_async_bulk_commit_group();
    cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
  }
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kTile;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  double_tiles<<<kBlocks, kWarp>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = 2 * input[i];
  return planted::compare(expected, out.to_host());
}
