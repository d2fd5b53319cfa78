// __threadfence_block() orders accesses for the threads of its own block only: as the fences of
// a hand-off between blocks it orders nothing, and the value read after the flag may be stale.
// With -DPLANTED_FIXED both fences are __threadfence().
#include "planted.cuh"

constexpr int kMessage = 42;

__device__ void fence_for_other_blocks() {
#ifdef PLANTED_FIXED
  __threadfence();
#else
  __threadfence_block();
#endif
}

__global__ void hand_off(int* message, unsigned* flag, int* received) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    *message = kMessage;  // expect: race
    fence_for_other_blocks();
    atomicExch(flag, 1u);
  } else {
    while (atomicAdd(flag, 0u) == 0) {
    }
    fence_for_other_blocks();
    *received = *message;  // expect: race
  }
}

int main() {
  return planted::check_hand_off(kMessage, [](int* message, unsigned* flag, int* received) {
    hand_off<<<2, 32>>>(message, flag, received);
  });
}
