// Starter code of a scan assignment as many courses hand it out: Thrust sorts and scans a
// device_vector, a hand-written kernel works on its storage through raw_pointer_cast, and
// thrust::reduce and a copy back check the result. Must run clean and print the right total.
#include <thrust/copy.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "planted.cuh"

__global__ void add_index(int* values, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] += i;
}

int main() {
  constexpr int n = 1000;
  thrust::host_vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = (i * 37) % 101;
  thrust::device_vector<int> values = host;
  thrust::sort(values.begin(), values.end());
  thrust::device_vector<int> scanned(n);
  thrust::exclusive_scan(values.begin(), values.end(), scanned.begin());
  thrust::inclusive_scan(values.begin(), values.end(), values.begin());
  add_index<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(scanned.data()), n);
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  const long long total = thrust::reduce(scanned.begin(), scanned.end(), 0LL);
  thrust::device_ptr<int> first = values.data();
  thrust::host_vector<int> inclusive(n);
  thrust::copy(first, first + n, inclusive.begin());

  std::vector<int> sorted(host.begin(), host.end());
  std::sort(sorted.begin(), sorted.end());
  long long expected = 0, running = 0;
  for (int i = 0; i < n; ++i) {
    expected += running + i;
    running += sorted[i];
    if (inclusive[i] != running) {
      std::fprintf(stderr, "inclusive scan at %d: expected %lld, got %d\n", i, running, inclusive[i]);
      return planted::kWrongResult;
    }
  }
  std::printf("total of the shifted exclusive scan: %lld (expected %lld)\n", total, expected);
  return total == expected ? planted::kCorrect : planted::kWrongResult;
}
