// Thrust over cudaMalloc memory, as NVIDIA's samples and course code write it: device_ptr
// wrappers, thrust::device, thrust::cuda::par with a temporary-storage allocator and a stream, a
// device_reference read on the host, a functor of the program's own that takes its element by
// reference, and a kernel that reads what Thrust wrote. On the simulator Thrust's loops run on
// the host: their accesses to device memory are checked as a kernel's are, and reported at the
// program's line. The planted bugs: a scan whose range runs one element past its buffer, and a
// sort of a buffer nothing wrote. The fixed twin gives the buffer's own range and fills the
// buffer first: it must run clean and print the right totals.
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "planted.cuh"

struct DoubleIt {
  __host__ __device__ int operator()(const int& x) const { return 2 * x; }
};

// Thrust's temporary storage from cudaMalloc, as caching allocators hand it out.
struct CountingAllocator {
  using value_type = char;
  int allocations = 0;
  char* allocate(std::ptrdiff_t bytes) {
    ++allocations;
    char* p = nullptr;
    PLANTED_CHECK(cudaMalloc(&p, bytes));
    return p;
  }
  void deallocate(char* p, std::size_t) { PLANTED_CHECK(cudaFree(p)); }
};

__global__ void add_index(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + i;
}

int main() {
  constexpr int n = 1000;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = (i * 37) % 101;
#ifdef PLANTED_FIXED
  constexpr int past_the_end = 0;
#else
  constexpr int past_the_end = 1;
#endif
  const planted::DeviceBuffer<int> values(host);
  const planted::DeviceBuffer<int> scanned(n, planted::Fill::nothing), doubled(n, planted::Fill::nothing),
      shifted(n, planted::Fill::nothing), keys(n, planted::Fill::nothing);
  const thrust::device_ptr<int> v(values.get()), s(scanned.get()), d(doubled.get());

  thrust::exclusive_scan(v, v + n + past_the_end, s);  // expect: out-of-bounds
  thrust::transform(thrust::device, s, s + n, d, DoubleIt());
  add_index<<<(n + 255) / 256, 256>>>(doubled.get(), shifted.get(), n);
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  cudaStream_t stream;
  PLANTED_CHECK(cudaStreamCreate(&stream));
  thrust::inclusive_scan(thrust::cuda::par.on(stream), shifted.get(), shifted.get() + n, shifted.get());
  const long long total = thrust::reduce(thrust::cuda::par_nosync, shifted.get(), shifted.get() + n, 0LL);
  const int last_exclusive = s[n - 1];  // a device_reference: Thrust copies the element to the host

#ifdef PLANTED_FIXED
  PLANTED_CHECK(cudaMemcpy(keys.get(), host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
#endif
  CountingAllocator allocator;
  thrust::sort(thrust::cuda::par(allocator).on(stream), keys.get(), keys.get() + n);  // expect: uninitialized-read
  PLANTED_CHECK(cudaStreamSynchronize(stream));
  PLANTED_CHECK(cudaStreamDestroy(stream));

  long long expected = 0, running = 0, shifted_running = 0;
  for (int i = 0; i < n; ++i) {
    shifted_running += 2 * running + i;
    expected += shifted_running;
    if (i < n - 1) running += host[i];
  }
  std::vector<int> sorted = host;
  std::sort(sorted.begin(), sorted.end());
  const bool sorted_right = keys.to_host() == sorted;
  std::printf("thrust over cudaMalloc memory: total %lld (expected %lld), last exclusive %d (expected %lld), "
              "sorted %s with %s temporary allocations\n",
              total, expected, last_exclusive, running, sorted_right ? "right" : "wrong",
              allocator.allocations > 0 ? "counted" : "no");
  return total == expected && last_exclusive == running && sorted_right ? planted::kCorrect : planted::kWrongResult;
}
