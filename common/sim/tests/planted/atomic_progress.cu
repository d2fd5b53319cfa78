// A loop of atomics that change memory is progress, not a spin: block 0 counts to a number
// larger than the simulator's deadlock limit (2000 rounds with no progress) through a
// cuda::atomic_ref, one store a round, while block 1 spins until it has finished. Nothing is
// planted: the program must run clean, with no deadlock report.
#include <cuda/atomic>

#include "planted.cuh"

constexpr unsigned kCount = 30000;

__global__ void count_then_signal(unsigned* counter, unsigned* done, unsigned* seen) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> count(*counter), finished(*done);
  if (blockIdx.x == 0) {
    for (unsigned i = 1; i <= kCount; ++i) count.store(i, cuda::memory_order_relaxed);
    finished.store(1, cuda::memory_order_release);
  } else {
    while (finished.load(cuda::memory_order_acquire) == 0) {
    }
    *seen = count.load(cuda::memory_order_relaxed);
  }
}

int main() {
  const planted::DeviceBuffer<unsigned> counter(1), done(1), seen(1);
  count_then_signal<<<2, 32>>>(counter.get(), done.get(), seen.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return seen.to_host()[0] == kCount ? planted::kCorrect : planted::kWrongResult;
}
