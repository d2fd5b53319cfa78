// Lecture-style unified memory: a cudaMallocManaged array that host and kernel both use, and
// a __managed__ total. The planted bug reads the kernel's results on the host before
// synchronizing: the simulator runs the kernel at once, so the values are right here, but a GPU
// runs it asynchronously (and a device without concurrent managed access faults on the read).
// The fixed twin synchronizes first.
#include "planted.cuh"

__managed__ int total;

__global__ void square_and_sum(int* values, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    values[i] *= values[i];
    atomicAdd(&total, values[i]);
  }
}

int main() {
  constexpr int n = 1000;
  int* values = nullptr;
  PLANTED_CHECK(cudaMallocManaged(&values, n * sizeof(int)));
  for (int i = 0; i < n; ++i) values[i] = i % 10;  // no kernel has run yet: the host may write
  total = 0;
  int device = 0;
  PLANTED_CHECK(cudaGetDevice(&device));
#if CUDART_VERSION >= 13000  // a location instead of a device number since CUDA 13
  const cudaMemLocation on_device{cudaMemLocationTypeDevice, device};
  PLANTED_CHECK(cudaMemAdvise(values, n * sizeof(int), cudaMemAdviseSetPreferredLocation, on_device));
  PLANTED_CHECK(cudaMemPrefetchAsync(values, n * sizeof(int), on_device, 0));
#else
  PLANTED_CHECK(cudaMemAdvise(values, n * sizeof(int), cudaMemAdviseSetPreferredLocation, device));
  PLANTED_CHECK(cudaMemPrefetchAsync(values, n * sizeof(int), device));
#endif
  square_and_sum<<<(n + 255) / 256, 256>>>(values, n);  // expect: host-access
#ifdef PLANTED_FIXED
  PLANTED_CHECK(cudaDeviceSynchronize());
#endif
  long long expected = 0, got = 0;
  for (int i = 0; i < n; ++i) {
    expected += (i % 10) * (i % 10);
    got += values[i];  // expect: host-access
  }
  PLANTED_CHECK(cudaDeviceSynchronize());
  const bool right = got == expected && total == expected;
  std::printf("sum of squares %lld, __managed__ total %d, expected %lld\n", got, total, expected);
  PLANTED_CHECK(cudaFree(values));
  return right ? planted::kCorrect : planted::kWrongResult;
}
