// A block's sum from its warps' sums: the first warp adds up the two warps' sums with a shuffle
// reduction that sits inside `if (lane < kWarps)`, so only lanes 0 and 1 call it, with a mask that
// names all 32 lanes. The other lanes go on to the __syncthreads() below and wait there, while
// lanes 0 and 1 wait in the shuffle for them: neither can complete. The report names the lanes at
// the barrier and says to call the shuffle outside the condition, with every lane of the mask
// (not to narrow the mask). The fixed twin does.
#include "planted.cuh"

constexpr unsigned kWarp = 32;
constexpr unsigned kWarps = 2;  // per block
constexpr unsigned kFullMask = 0xffffffffu;

__device__ int warp_sum(int v) {
  for (unsigned delta = kWarp / 2; delta > 0; delta /= 2) v += __shfl_down_sync(kFullMask, v, delta);  // expect: warp-mask
  return v;
}

__global__ void block_sums(const int* in, int* out) {
  __shared__ int sums[kWarps];
  __shared__ int total;
  const unsigned warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  const int own = warp_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (lane == 0) sums[warp] = own;
  __syncthreads();
  if (warp == 0) {
#ifdef PLANTED_FIXED
    const int all = warp_sum(lane < kWarps ? sums[lane] : 0);
    if (lane == 0) total = all;
#else
    if (lane < kWarps) {
      const int all = warp_sum(sums[lane]);
      if (lane == 0) total = all;
    }
#endif
  }
  __syncthreads();  // expect: warp-mask (where the lanes the call left out wait)
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

int main() {
  constexpr unsigned kBlocks = 2, kThreads = kWarps * kWarp;
  return planted::check_tile_sums(kBlocks * kThreads, kThreads,
                                  [](const int* in, int* out) { block_sums<<<kBlocks, kThreads>>>(in, out); });
}
