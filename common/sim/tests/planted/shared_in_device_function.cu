// __shared__ variables declared inside __device__ functions, as block-level helpers write them:
// one instance per block, whichever thread reaches the declaration first, shared by every call
// of the function in that block.
#include "planted.cuh"

constexpr unsigned kThreads = 128;
constexpr unsigned kBlocks = 3;
constexpr unsigned kWarpSize = 32;

template <class T>
__device__ T block_sum(T value) {
  __shared__ T warp_sums[kThreads / kWarpSize];
  __shared__ T total;
  for (unsigned offset = kWarpSize / 2; offset > 0; offset /= 2)
    value += __shfl_down_sync(0xffffffffu, value, offset);
  if (threadIdx.x % kWarpSize == 0) warp_sums[threadIdx.x / kWarpSize] = value;
  __syncthreads();
  if (threadIdx.x == 0) {
    T sum = 0;
    for (unsigned w = 0; w < blockDim.x / kWarpSize; ++w) sum += warp_sums[w];
    total = sum;
  }
  __syncthreads();
  const T result = total;
  __syncthreads();  // the next call may overwrite warp_sums and total
  return result;
}

__global__ void sums(const int* in, int* out) {
  const int x = in[blockIdx.x * blockDim.x + threadIdx.x];
  const int once = block_sum(x);
  const int twice = block_sum(2 * x);
  if (threadIdx.x == 0) out[blockIdx.x] = once + twice;
}

int main() {
  const std::vector<int> input = planted::test_input(kThreads * kBlocks);
  const planted::DeviceBuffer<int> in(input), out(kBlocks);
  sums<<<kBlocks, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kBlocks, 0);
  for (unsigned i = 0; i < input.size(); ++i) expected[i / kThreads] += 3 * input[i];
  return planted::compare(expected, out.to_host());
}
