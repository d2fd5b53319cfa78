// atomicAdd_block is atomic for the threads of its own block only: when threads of several
// blocks add to one counter with it, their additions race (and may be lost). With
// -DPLANTED_FIXED the counter is added to with atomicAdd, of device scope; a per-block count in
// shared memory may use atomicAdd_block.
#include "planted.cuh"

constexpr unsigned kThreads = 64;
constexpr unsigned kBlocks = 4;

__global__ void count(unsigned* total) {
  __shared__ unsigned in_block;
  if (threadIdx.x == 0) in_block = 0;
  __syncthreads();
  atomicAdd_block(&in_block, 1u);
#ifdef PLANTED_FIXED
  atomicAdd(total, 1u);
#else
  atomicAdd_block(total, 1u);  // expect: race
#endif
}

int main() {
  const planted::DeviceBuffer<unsigned> total(1);
  count<<<kBlocks, kThreads>>>(total.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return total.to_host()[0] == kBlocks * kThreads ? planted::kCorrect : planted::kWrongResult;
}
