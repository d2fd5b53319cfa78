// A kernel, its shared memory and its launch in a header of the program: the simulator
// rewrites the header as it rewrites the .cu that includes it, and reports name the header's
// own lines.
#pragma once

#include "planted.cuh"

constexpr unsigned kSumBlockSize = 256;

// Tree reduction of one block's inputs: each step halves the threads that add. The barrier
// that ends a step keeps the next step from reading partial sums that are still being
// written; built as is, it is missing, and with -DPLANTED_FIXED it is there.
__global__ void block_sum(const int* in, int* out) {
  __shared__ int partial[kSumBlockSize];
  const unsigned i = threadIdx.x;
  partial[i] = in[i];
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (i < half) partial[i] += partial[i + half];  // expect: race
#ifdef PLANTED_FIXED
    __syncthreads();
#endif
  }
  if (i == 0) *out = partial[0];
}

inline void launch_block_sum(const int* in, int* out) { block_sum<<<1, kSumBlockSize>>>(in, out); }
