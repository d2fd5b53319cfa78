// A neighbour's value through shared memory, in a function that race_in_header.cu includes, as a
// lab includes the file of the lab before it. The write and the neighbour's read have no barrier
// between them; the block's last barrier is the including file's. With -DPLANTED_FIXED a barrier
// orders the two.
#pragma once

template <unsigned kThreads>
__device__ int plus_neighbour(int* stage, int value) {
  stage[threadIdx.x] = value;  // expect: race
#ifdef PLANTED_FIXED
  __syncthreads();
#endif
  return value + stage[(threadIdx.x + 1) % kThreads];  // expect: race
}
