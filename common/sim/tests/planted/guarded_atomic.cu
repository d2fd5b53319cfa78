// A plain read of a word that other threads change with atomics: `if (*best < v)
// atomicMax(best, v)` skips the atomic when it cannot change anything, but the plain read
// races with the other threads' atomicMax (the PTX memory model makes it a data race; the
// Indigo benchmark calls it a guard bug). The compare-and-swap loop of atomic_beside_plain.cu
// reads the same way, but atomicCAS checks what it read, and that stays clean. With
// -DPLANTED_FIXED the guard reads with an atomic.
#include "planted.cuh"

constexpr unsigned kThreads = 64;
constexpr unsigned kBlocks = 4;

__global__ void maximum(const int* in, int* best) {
  const int v = in[blockIdx.x * kThreads + threadIdx.x];
#ifdef PLANTED_FIXED
  if (atomicAdd(best, 0) < v) atomicMax(best, v);
#else
  if (*best < v) atomicMax(best, v);  // expect: race
#endif
}

int main() {
  const std::vector<int> input = planted::test_input(kBlocks * kThreads);
  const planted::DeviceBuffer<int> in(input), best(1);
  maximum<<<kBlocks, kThreads>>>(in.get(), best.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  int expected = 0;
  for (int x : input) expected = expected < x ? x : expected;
  return planted::compare({expected}, best.to_host());
}
