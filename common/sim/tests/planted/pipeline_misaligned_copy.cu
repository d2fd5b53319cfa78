// Each thread stages four ints of a tile with one 16-byte asynchronous copy. A 16-byte cp.async
// needs both addresses aligned to 16 bytes; here the shared tile starts one int past an aligned
// address, which the GPU refuses (a misaligned address error). The fixed twin copies into an
// aligned tile.
#include <cuda_pipeline.h>

#include "planted.cuh"

constexpr unsigned kThreads = 32, kPerThread = 4, kTile = kThreads * kPerThread;

__global__ void reverse_quads(const int* in, int* out) {
  __shared__ alignas(16) int buffer[kTile + kPerThread];
#ifdef PLANTED_FIXED
  int* tile = buffer;
#else
  int* tile = buffer + 1;
#endif
  const unsigned first = blockIdx.x * kTile, mine = threadIdx.x * kPerThread;
  __pipeline_memcpy_async(tile + mine, in + first + mine, 16);  // expect: api-misuse
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  for (unsigned k = 0; k < kPerThread; ++k) out[first + mine + k] = tile[kTile - 1 - (mine + k)];
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kTile;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  reverse_quads<<<kBlocks, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = input[i / kTile * kTile + kTile - 1 - i % kTile];
  return planted::compare(expected, out.to_host());
}
