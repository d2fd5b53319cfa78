// The "last block" reduction of CUDA's threadFenceReduction sample and the Programming Guide:
// each block writes its partial sum, and the block that takes the last ticket from a
// __device__ counter adds them all up. The ticket hands the partial sums over only when each
// block fences between its store and its atomicInc (release), and the last block fences between
// its atomicInc and reading the sums (acquire); the planted bug leaves both fences out, and the
// last block reads sums that another block may not have made visible yet. The fixed twin
// fences on both sides, and must run clean.
#include "planted.cuh"

constexpr unsigned kThreads = 64;
constexpr unsigned kBlocks = 8;

__device__ unsigned blocks_done = 0;

__global__ void sum_all(const int* in, int* partial, int* total) {
  __shared__ int block_sum;
  __shared__ bool is_last;
  if (threadIdx.x == 0) block_sum = 0;
  __syncthreads();
  atomicAdd(&block_sum, in[blockIdx.x * kThreads + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = block_sum;  // expect: race
#ifdef PLANTED_FIXED
    __threadfence();
#endif
    is_last = atomicInc(&blocks_done, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (is_last && threadIdx.x == 0) {
#ifdef PLANTED_FIXED
    __threadfence();
#endif
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];  // expect: race
    *total = sum;
  }
}

int main() {
  const std::vector<int> input = planted::test_input(kBlocks * kThreads);
  const planted::DeviceBuffer<int> in(input), partial(kBlocks), total(1);
  sum_all<<<kBlocks, kThreads>>>(in.get(), partial.get(), total.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  int expected = 0;
  for (int v : input) expected += v;
  return planted::compare({expected}, total.to_host());
}
