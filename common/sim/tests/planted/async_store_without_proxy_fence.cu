// One warp doubles tile after tile into a shared-memory staging buffer, and lane 0 stores each
// staged tile to global memory with a bulk asynchronous copy. The copy reads the buffer through
// the async proxy, which __syncwarp does not order: the lanes' ordinary stores reach it only
// after a fence.proxy.async, which is missing here. The fixed twin fences before the copy.
#include <cuda/ptx>

#include "planted.cuh"

constexpr unsigned kTile = 128;  // ints per tile
constexpr unsigned kTiles = 4;   // tiles per block
constexpr unsigned kWarp = 32;

__global__ void double_in_tiles(const int* in, int* out) {
  __shared__ alignas(16) int staged[kTile];
  const unsigned lane = threadIdx.x;
  const unsigned first = blockIdx.x * kTiles * kTile;
  for (unsigned k = 0; k < kTiles; ++k) {
    for (unsigned i = lane; i < kTile; i += kWarp) staged[i] = 2 * in[first + k * kTile + i];  // expect: race
#ifdef PLANTED_FIXED
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);  // the copy reads through the async proxy
#endif
    __syncwarp();
    if (lane == 0) {
      cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared, out + first + k * kTile, staged,  // expect: race
                               static_cast<unsigned>(sizeof staged));
      cuda::ptx::cp_async_bulk_commit_group();
      cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});  // the copy has read the buffer
    }
    __syncwarp();
  }
  if (lane == 0) cuda::ptx::cp_async_bulk_wait_group(cuda::ptx::n32_t<0>{});
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kTiles * kTile;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  double_in_tiles<<<kBlocks, kWarp>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = 2 * input[i];
  return planted::compare(expected, out.to_host());
}
