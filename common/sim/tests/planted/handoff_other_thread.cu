// A fence covers the accesses of its own thread, and those of its block before a barrier the
// thread crossed. Here thread 1 of block 0 writes the value while thread 0 fences and raises
// the flag, with no barrier between them: the value is not published, whatever the fence.
// With -DPLANTED_FIXED a __syncthreads() comes first.
#include "planted.cuh"

constexpr int kMessage = 42;

__global__ void hand_off(int* message, unsigned* flag, int* received) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 1) *message = kMessage;  // expect: race
#ifdef PLANTED_FIXED
    __syncthreads();
#endif
    if (threadIdx.x == 0) {
      __threadfence();
      atomicExch(flag, 1u);
    }
  } else if (threadIdx.x == 0) {
    const volatile unsigned* seen = flag;
    while (*seen == 0) {
    }
    __threadfence();
    *received = *message;  // expect: race
  }
}

int main() {
  return planted::check_hand_off(kMessage, [](int* message, unsigned* flag, int* received) {
    hand_off<<<2, 32>>>(message, flag, received);
  });
}
