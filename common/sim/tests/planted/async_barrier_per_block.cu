// A barrier object lives in one block's shared memory, so each block initializes its own. Here
// only block 0 does, as if one __shared__ barrier served the whole grid: the other blocks arrive
// on a barrier that was never initialized. The fixed twin initializes one per block.
#include <cuda/barrier>

#include "planted.cuh"

using Barrier = cuda::barrier<cuda::thread_scope_block>;
#ifdef __CUDACC__
// A __shared__ barrier is set up by init(), not by a constructor: nvcc's warning does not apply.
#pragma nv_diag_suppress static_var_with_dynamic_init
#endif

constexpr unsigned kThreads = 64;

__global__ void reverse_in_blocks(const int* in, int* out) {
  __shared__ int staged[kThreads];
  __shared__ Barrier staged_all;
#ifdef PLANTED_FIXED
  if (threadIdx.x == 0) init(&staged_all, blockDim.x);
#else
  if (blockIdx.x == 0 && threadIdx.x == 0) init(&staged_all, gridDim.x * blockDim.x);
#endif
  __syncthreads();
  const unsigned first = blockIdx.x * kThreads;
  staged[threadIdx.x] = in[first + threadIdx.x];
  staged_all.arrive_and_wait();  // expect: api-misuse
  out[first + threadIdx.x] = staged[kThreads - 1 - threadIdx.x];
}

int main() {
  constexpr unsigned kBlocks = 2, n = kBlocks * kThreads;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n);
  reverse_in_blocks<<<kBlocks, kThreads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = input[i / kThreads * kThreads + kThreads - 1 - i % kThreads];
  return planted::compare(expected, out.to_host());
}
