// libcu++'s atomics and fences, as modern CUDA code expresses a hand-off. Blocks 0 and 1 pass
// a value with a flag stored and loaded through cuda::atomic_ref; blocks 2 and 3 with relaxed
// flag operations between cuda::atomic_thread_fence calls. As written, the flag's store and
// load are relaxed and the fences of block scope: neither orders the value for another block.
// With -DPLANTED_FIXED the store releases, the load acquires and the fences are of device
// scope. A cuda::std::atomic_ref ticket and a block-scope counter in shared memory run in both.
#include <cuda/atomic>
#include <cuda/std/atomic>

#include "planted.cuh"

constexpr int kMessage = 42;

#ifdef PLANTED_FIXED
constexpr cuda::memory_order kStoreOrder = cuda::memory_order_release;
constexpr cuda::memory_order kLoadOrder = cuda::memory_order_acquire;
constexpr cuda::thread_scope kFenceScope = cuda::thread_scope_device;
#else
constexpr cuda::memory_order kStoreOrder = cuda::memory_order_relaxed;
constexpr cuda::memory_order kLoadOrder = cuda::memory_order_relaxed;
constexpr cuda::thread_scope kFenceScope = cuda::thread_scope_block;
#endif

__global__ void hand_off(int* message, unsigned* flag, int* received, unsigned* tickets) {
  __shared__ unsigned arrived;
  if (threadIdx.x == 0) arrived = 0;
  __syncthreads();
  cuda::atomic_ref<unsigned, cuda::thread_scope_block>(arrived).fetch_add(1, cuda::memory_order_relaxed);
  if (threadIdx.x != 0) return;
  cuda::std::atomic_ref<unsigned>(*tickets)++;
  const unsigned pair = blockIdx.x / 2;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> ready(flag[pair]);
  if (pair == 0) {
    if (blockIdx.x % 2 == 0) {
      message[pair] = kMessage;  // expect: race
      ready.store(1, kStoreOrder);
    } else {
      while (ready.load(kLoadOrder) == 0) {
      }
      received[pair] = message[pair];  // expect: race
    }
  } else {
    if (blockIdx.x % 2 == 0) {
      message[pair] = kMessage;  // expect: race
      cuda::atomic_thread_fence(cuda::memory_order_seq_cst, kFenceScope);
      ready.store(1, cuda::memory_order_relaxed);
    } else {
      while (ready.load(cuda::memory_order_relaxed) == 0) {
      }
      cuda::atomic_thread_fence(cuda::memory_order_seq_cst, kFenceScope);
      received[pair] = message[pair];  // expect: race
    }
  }
}

int main() {
  const planted::DeviceBuffer<int> message(2), received(2);
  const planted::DeviceBuffer<unsigned> flag(2), tickets(1);
  hand_off<<<4, 32>>>(message.get(), flag.get(), received.get(), tickets.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  if (tickets.to_host()[0] != 4) return planted::kWrongResult;
  return planted::compare({kMessage, kMessage}, received.to_host());
}
