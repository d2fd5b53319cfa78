// Atomics beside plain accesses to the same word. The compare-and-swap loop of the CUDA
// Programming Guide reads the word plainly and lets atomicCAS check what it read: not a race.
// A plain store beside other threads' atomics is one: here thread 0 resets the running total
// with `=` while the others add to it (with -DPLANTED_FIXED the reset is an atomicExch).
#include "planted.cuh"

constexpr unsigned kThreads = 128;

__device__ float atomic_max_float(float* address, float value) {
  int* const word = reinterpret_cast<int*>(address);
  int seen = *word;  // a guess: atomicCAS below checks it
  int assumed;
  do {
    assumed = seen;
    seen = atomicCAS(word, assumed, __float_as_int(fmaxf(value, __int_as_float(assumed))));
  } while (assumed != seen);
  return __int_as_float(seen);
}

__global__ void max_and_total(const int* in, float* maximum, int* total) {
  const unsigned i = threadIdx.x;
  atomic_max_float(maximum, static_cast<float>(in[i]));
#ifdef PLANTED_FIXED
  if (i == 0) atomicExch(total, 0);
#else
  if (i == 0) *total = 0;  // expect: race
#endif
  if (i != 0) atomicAdd(total, 1);  // expect: race
}

int main() {
  std::vector<int> input = planted::test_input(kThreads);
  for (int& x : input) x = x < 0 ? -x : x;  // the float maximum starts from 0
  const planted::DeviceBuffer<int> in(input), total(1);
  const planted::DeviceBuffer<float> maximum(1);
  max_and_total<<<1, kThreads>>>(in.get(), maximum.get(), total.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  float expected = 0;
  for (int x : input) expected = expected < x ? static_cast<float>(x) : expected;
  return maximum.to_host()[0] == expected ? planted::kCorrect : planted::kWrongResult;
}
