// Blocks sum tiles of an array whose length is not a multiple of the tile, and the zero fill of
// __pipeline_memcpy_async (its fourth argument) pads the last tile, so the sum needs no bounds
// check. Here each thread stages four ints with one 16-byte copy and fills what runs past the
// end with zeros: the copy still names 16 bytes of source, which compute-sanitizer's memcheck
// reports as an invalid read past the buffer (and the launch fails under it). The fixed twin
// copies each int on its own, with the zero fill for those past the end and a source inside
// the buffer.
#include <cuda_pipeline.h>

#include "planted.cuh"

constexpr unsigned kThreads = 32, kPerThread = 4, kTile = kThreads * kPerThread;

__global__ void sum_tiles(const int* in, unsigned n, int* sums) {
  __shared__ alignas(16) int tile[kTile];
  __shared__ int partial[kThreads];
  const unsigned first = blockIdx.x * kTile + threadIdx.x * kPerThread;
#ifdef PLANTED_FIXED
  for (unsigned k = 0; k < kPerThread; ++k) {
    const bool present = first + k < n;
    // A copy of zeros alone reads nothing, but still names a source inside the buffer.
    __pipeline_memcpy_async(&tile[threadIdx.x * kPerThread + k], present ? in + first + k : in, sizeof(int),
                            present ? 0 : sizeof(int));
  }
#else
  const unsigned present = first >= n ? 0 : min(kPerThread, n - first);
  const int* source = present > 0 ? in + first : in;
  __pipeline_memcpy_async(&tile[threadIdx.x * kPerThread], source, 16, (kPerThread - present) * sizeof(int));  // expect: out-of-bounds
#endif
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
