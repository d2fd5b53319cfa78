// A __syncthreads() inside a branch that depends on threadIdx: the first half-warp waits at
// one barrier while every other thread of the block waits at the next one. CUDA requires all
// threads of a block to reach the same barrier, so the block can never continue correctly.
#include "planted.cuh"

constexpr unsigned kThreads = 64;
constexpr unsigned kFirstThreads = 16;

__global__ void rotate_first_threads(const int* in, int* out) {
  __shared__ int tile[kThreads];
  const unsigned i = threadIdx.x;
  tile[i] = in[i];
  if (i < kFirstThreads) {
    __syncthreads();  // expect: barrier-divergence
    tile[i] += tile[(i + 1) % kFirstThreads];
  }
  __syncthreads();  // expect: barrier-divergence
  out[i] = tile[i];
}

int main() {
  const std::vector<int> input = planted::test_input(kThreads);
  const planted::DeviceBuffer<int> in(input), out(kThreads);
  rotate_first_threads<<<1, kThreads>>>(in.get(), out.get());
  return planted::kernels_succeeded() ? planted::kCorrect : planted::kWrongResult;
}
