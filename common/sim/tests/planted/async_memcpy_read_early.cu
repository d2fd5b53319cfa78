// A block stages a tile in shared memory with cuda::memcpy_async, tracked by a barrier: the
// copy completes with the barrier's phase, which ends when every thread has arrived. Each thread
// then writes the tile reversed. Here threads read the tile before they wait for the phase, while
// the copy may not have landed: a race between the copy and the read. The fixed twin waits.
#include <cooperative_groups.h>
#include <cuda/barrier>

#include "planted.cuh"

namespace cg = cooperative_groups;
using Barrier = cuda::barrier<cuda::thread_scope_block>;
#ifdef __CUDACC__
// A __shared__ barrier is set up by init(), not by a constructor: nvcc's warning does not apply.
#pragma nv_diag_suppress static_var_with_dynamic_init
#endif

constexpr unsigned kThreads = 64;

__global__ void reverse_in_blocks(const int* in, int* out) {
  __shared__ alignas(16) int tile[kThreads];
  __shared__ Barrier copied;
  const cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&copied, block.size());
  tile[threadIdx.x] = 0;
  block.sync();
  const unsigned first = blockIdx.x * kThreads;
  cuda::memcpy_async(block, tile, in + first, cuda::aligned_size_t<16>(sizeof tile), copied);  // expect: race
#ifdef PLANTED_FIXED
  copied.arrive_and_wait();
  out[first + threadIdx.x] = tile[kThreads - 1 - threadIdx.x];
#else
  out[first + threadIdx.x] = tile[kThreads - 1 - threadIdx.x];  // expect: race
  copied.arrive_and_wait();
#endif
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
