// A sum whose accumulator nobody set to zero: every block adds its partial sum with atomicAdd
// to a word that cudaMalloc left as it was. An atomicAdd reads the word it adds to, so the
// first one reads memory that nothing wrote.
#include "planted.cuh"

constexpr unsigned kThreads = 64;
constexpr unsigned kBlocks = 4;

__global__ void sum(const int* in, int* total) {
  __shared__ int partial[kThreads];
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride) partial[t] += partial[t + stride];
  }
  if (t == 0) atomicAdd(total, partial[0]);  // expect: uninitialized-read
}

int main() {
  const std::vector<int> input = planted::test_input(kThreads * kBlocks);
  const planted::DeviceBuffer<int> in(input);
  const planted::DeviceBuffer<int> total(1, planted::Fill::nothing);
#ifdef PLANTED_FIXED
  PLANTED_CHECK(cudaMemset(total.get(), 0, sizeof(int)));
#endif
  sum<<<kBlocks, kThreads>>>(in.get(), total.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  int expected = 0;
  for (int v : input) expected += v;
  return planted::compare({expected}, total.to_host());
}
