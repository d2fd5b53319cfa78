// The correct way to read another thread's shared memory: write, __syncthreads(), read. Several
// blocks, fewer of them resident than launched, so shared memory is reused between blocks.
#include "planted.cuh"

constexpr unsigned kThreads = 96;  // three warps, so the barrier orders threads of different warps
constexpr unsigned kBlocks = 5;

// Each block rotates its section left by one place.
__global__ void rotate_left(const int* in, int* out) {
  __shared__ int tile[kThreads];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = tile[(threadIdx.x + 1) % kThreads];
}

int main() {
  const unsigned n = kThreads * kBlocks;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  rotate_left<<<kBlocks, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = input[i / kThreads * kThreads + (i + 1) % kThreads];
  return planted::compare(expected, out.to_host());
}
