// The reader's side of a hand-off. Block 0 writes a value, fences and raises a flag (a release
// pattern); block 1 waits for the flag and reads the value with a plain load right after it,
// with no fence between the two: the load is not ordered after the flag (no acquire pattern),
// and may be served from a stale cache line. On a GPU it usually reads the right value, which
// is why no test run catches it. With -DPLANTED_FIXED a __threadfence() follows the flag.
#include "planted.cuh"

constexpr int kMessage = 42;

__global__ void hand_off(int* message, unsigned* flag, int* received) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    *message = kMessage;  // expect: race
    __threadfence();
    atomicExch(flag, 1u);
  } else {
    const volatile unsigned* seen = flag;
    while (*seen == 0) {
    }
#ifdef PLANTED_FIXED
    __threadfence();
#endif
    *received = *message;  // expect: race
  }
}

int main() {
  return planted::check_hand_off(kMessage, [](int* message, unsigned* flag, int* received) {
    hand_off<<<2, 32>>>(message, flag, received);
  });
}
