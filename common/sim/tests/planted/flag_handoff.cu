// Block 0 writes a value and raises a flag; block 1 waits for the flag and reads the value.
// Without a fence between the two stores, the GPU may make the flag visible to block 1 before
// the value: block 1 can read a stale value even though it saw the flag. With -DPLANTED_FIXED
// both sides fence: __threadfence() between the value and the flag (the writer's release), and
// between seeing the flag and reading the value (the reader's acquire).
#include "planted.cuh"

constexpr int kMessage = 42;

__global__ void hand_off(int* message, int* flag, int* received) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    *message = kMessage;  // expect: race
#ifdef PLANTED_FIXED
    __threadfence();
#endif
    atomicExch(flag, 1);
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
#ifdef PLANTED_FIXED
    __threadfence();
#endif
    *received = *static_cast<volatile int*>(message);  // expect: race
  }
}

int main() {
  const planted::DeviceBuffer<int> message(1), flag(1), received(1);
  hand_off<<<2, 32>>>(message.get(), flag.get(), received.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return planted::compare({kMessage}, received.to_host());
}
