// One warp doubles a tile into shared memory, and lane 0 stores it to global memory with a bulk
// asynchronous copy, then the block ends. The copy reads shared memory until a wait says it is
// done, and a block's shared memory goes to the next block when it ends: lane 0 must wait for
// its bulk group before it exits. The fixed twin waits.
#include <cuda/ptx>

#include "planted.cuh"

constexpr unsigned kTile = 128;  // ints per block
constexpr unsigned kWarp = 32;

__global__ void double_a_tile(const int* in, int* out) {
  __shared__ alignas(16) int staged[kTile];
  const unsigned lane = threadIdx.x;
  const unsigned first = blockIdx.x * kTile;
  for (unsigned i = lane; i < kTile; i += kWarp) staged[i] = 2 * in[first + i];
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);  // the copy reads through the async proxy
  __syncwarp();
  if (lane == 0) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared, out + first, staged,  // expect: api-misuse
                             static_cast<unsigned>(sizeof staged));
    cuda::ptx::cp_async_bulk_commit_group();
#ifdef PLANTED_FIXED
    cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
#endif
  }
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kTile;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  double_a_tile<<<kBlocks, kWarp>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = 2 * input[i];
  return planted::compare(expected, out.to_host());
}
