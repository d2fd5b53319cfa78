// A program that prints its result and then never ends, in host code: a time limit stops it
// while no kernel runs. Its output goes to a pipe under the tests, so it is block-buffered and
// still in the C library's buffers when the signal comes; the simulator flushes it before the
// process ends as the signal would end it, and says whole where it was stopped.
#include <cstdio>
#include <iostream>

#include "planted.cuh"

__global__ void fill(int* out) { out[threadIdx.x] = static_cast<int>(threadIdx.x); }

int main() {
  const planted::DeviceBuffer<int> values(32);
  fill<<<1, 32>>>(values.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  int sum = 0;
  for (int v : values.to_host()) sum += v;
  std::printf("printed with printf before the stop: sum %d\n", sum);
  std::cout << "printed with std::cout before the stop" << std::endl;
  std::cout << "and a line std::cout had not flushed\n";
  volatile unsigned long long turns = 0;
  for (;;) turns = turns + 1;  // host code that never ends
}
