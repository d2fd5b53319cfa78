// A block reduction that loads only the elements that exist (i < n) and then reduces the whole
// tile: in the last block, the tree reads tile entries that no thread wrote. Shared memory
// holds garbage when a block starts, and nothing on a GPU reports it; the simulator does, for
// a static __shared__ tile and for dynamic shared memory alike.
#include "planted.cuh"

constexpr unsigned kThreads = 64;
constexpr unsigned kElements = 100;  // not a multiple of kThreads: the second block is partial

// A template, so that each kernel has its own copy of the reading line and each tile is reported.
template <class Tile>
__device__ void reduce_tile(Tile& tile, int* block_sums) {
  const unsigned t = threadIdx.x;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride) tile[t] += tile[t + stride];  // expect: uninitialized-read
  }
  if (t == 0) block_sums[blockIdx.x] = tile[0];
}

__device__ void load(int* tile, const int* in, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef PLANTED_FIXED
  tile[threadIdx.x] = i < n ? in[i] : 0;
#else
  if (i < n) tile[threadIdx.x] = in[i];
#endif
}

__global__ void sum_static(const int* in, unsigned n, int* block_sums) {
  __shared__ int tile[kThreads];
  load(tile, in, n);
  reduce_tile(tile, block_sums);
}

__global__ void sum_dynamic(const int* in, unsigned n, int* block_sums) {
  extern __shared__ int dynamic_tile[];
  load(dynamic_tile, in, n);
  reduce_tile(dynamic_tile, block_sums);
}

int main() {
  const std::vector<int> input = planted::test_input(kElements);
  const unsigned blocks = (kElements + kThreads - 1) / kThreads;
  const planted::DeviceBuffer<int> in(input), sums_static(blocks), sums_dynamic(blocks);
  sum_static<<<blocks, kThreads>>>(in.get(), kElements, sums_static.get());
  sum_dynamic<<<blocks, kThreads, kThreads * sizeof(int)>>>(in.get(), kElements, sums_dynamic.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(blocks, 0);
  for (unsigned i = 0; i < kElements; ++i) expected[i / kThreads] += input[i];
  if (int status = planted::compare(expected, sums_static.to_host()); status != planted::kCorrect) return status;
  return planted::compare(expected, sums_dynamic.to_host());
}
