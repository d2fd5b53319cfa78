// A flag read before it carried the hand-off it later relays. Block 0 writes a value, fences and
// raises `ready`. In block 1, thread 1 reads the `relay` flag first; then thread 0 waits for
// `ready`, fences (acquiring block 0's value) and stores `relay` after the fence, so that from
// then on `relay` carries block 0's value too; then thread 1 reads the value, with no acquire of
// its own and no barrier after thread 0's acquire. What thread 1 read of `relay` carried nothing of
// block 0, so nothing orders its read after block 0's write: an error, not the warning a ticket
// drawn after the fence would get. With -DPLANTED_FIXED a barrier (__syncthreads) takes thread 0's
// acquire to the whole block before thread 1 reads.
#include "planted.cuh"

constexpr int kMessage = 42;

__global__ void relay_hand_off(int* message, unsigned* ready, unsigned* relay, int* received) {
  if (blockIdx.x == 0) {
    if (threadIdx.x != 0) return;
    *message = kMessage;  // expect: race
    __threadfence();
    atomicExch(ready, 1u);
    return;
  }
  if (threadIdx.x == 0) atomicExch(relay, 1u);
  __syncwarp();
  if (threadIdx.x == 1) atomicAdd(relay, 0u);  // relay's knowledge now: block 1's store alone
  __syncwarp();
  if (threadIdx.x == 0) {
    const volatile unsigned* seen = ready;
    while (*seen == 0) {
    }
    __threadfence();
    atomicExch(relay, 2u);  // hands on what thread 0 acquired: block 0's value
  }
#ifdef PLANTED_FIXED
  __syncthreads();
#else
  __syncwarp();
#endif
  if (threadIdx.x == 1) *received = *message;  // expect: race
}

int main() {
  const planted::DeviceBuffer<int> message(1), received(1);
  const planted::DeviceBuffer<unsigned> ready(1), relay(1);
  relay_hand_off<<<2, 32>>>(message.get(), ready.get(), relay.get(), received.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return planted::compare({kMessage}, received.to_host());
}
