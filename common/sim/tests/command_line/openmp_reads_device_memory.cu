// Host code that reads device memory inside an OpenMP loop: a bug the simulator reports. The
// loop body is a function the compiler makes itself (main._omp_fn.0), whose debug line entries
// name the compiled file: the report must name this file, never simcc's temporary copy of it.
#include <cstdio>

int main() {
  constexpr int kCount = 64;
  int* device = nullptr;
  cudaMalloc(&device, kCount * sizeof(int));
  cudaMemset(device, 0, kCount * sizeof(int));
  long long sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < kCount; ++i) sum += device[i];  // expect: host-reads-device-memory
  std::printf("%lld\n", sum);
  cudaFree(device);
  return 0;
}
