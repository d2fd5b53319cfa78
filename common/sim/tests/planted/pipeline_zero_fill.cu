// Blocks sum tiles of an array whose length is not a multiple of the tile. Each thread stages
// four ints with one 16-byte asynchronous copy; where they run past the end, the zero fill (the
// fourth argument of __pipeline_memcpy_async) pads the copy with zeros, so the sum needs no
// bounds check. Clean: the simulator must report nothing, and the sums must match.
#include <cuda_pipeline.h>

#include "planted.cuh"

constexpr unsigned kThreads = 32, kPerThread = 4, kTile = kThreads * kPerThread;

__global__ void sum_tiles(const int* in, unsigned n, int* sums) {
  __shared__ alignas(16) int tile[kTile];
  __shared__ int partial[kThreads];
  const unsigned first = blockIdx.x * kTile + threadIdx.x * kPerThread;
  const unsigned present = first >= n ? 0 : min(kPerThread, n - first);
  // A copy of zeros alone reads nothing, but still names an aligned source.
  const int* source = present > 0 ? in + first : in;
  __pipeline_memcpy_async(&tile[threadIdx.x * kPerThread], source, 16, (kPerThread - present) * sizeof(int));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  int sum = 0;
  for (unsigned k = threadIdx.x; k < kTile; k += kThreads) sum += tile[k];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned stride = kThreads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
}

int main() {
  constexpr unsigned n = 2 * kTile + 37, kBlocks = (n + kTile - 1) / kTile;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), sums(kBlocks);
  sum_tiles<<<kBlocks, kThreads>>>(in.get(), n, sums.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kBlocks, 0);
  for (unsigned i = 0; i < n; ++i) expected[i / kTile] += input[i];
  return planted::compare(expected, sums.to_host());
}
