// Thrust's CUDA memory resources, as benchmarks of stream compaction write them: a device_vector
// whose storage comes from thrust::cuda::memory_resource through a pool of <thrust/mr>, a scan
// and a sort with thrust::cuda::par(allocator) whose temporary storage a custom allocator takes
// from that resource, and managed memory from thrust::cuda::universal_memory_resource that a
// kernel writes and the host reads. Prints the results and what each allocator handed out.
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/mr/allocator.h>
#include <thrust/mr/disjoint_pool.h>
#include <thrust/mr/new.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system/cuda/memory_resource.h>
#include <thrust/system/cuda/pointer.h>

#include <cstddef>
#include <cstdio>
#include <vector>

// Temporary storage for Thrust's algorithms, from the CUDA memory resource; counts its calls.
struct CountingAllocator {
  using value_type = char;
  thrust::cuda::memory_resource* resource;
  int allocations = 0;
  int deallocations = 0;
  char* allocate(std::ptrdiff_t bytes) {
    ++allocations;
    return static_cast<char*>(thrust::raw_pointer_cast(resource->allocate(static_cast<std::size_t>(bytes))));
  }
  void deallocate(char* p, std::size_t bytes) {
    ++deallocations;
    resource->deallocate(thrust::cuda::pointer<void>(p), bytes);
  }
};

__global__ void squares(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * i;
}

int main() {
  constexpr int n = 1000;
  thrust::cuda::memory_resource device_memory;
  using Pool = thrust::mr::disjoint_unsynchronized_pool_resource<thrust::cuda::memory_resource,
                                                                 thrust::mr::new_delete_resource>;
  Pool pool(&device_memory, thrust::mr::get_global_resource<thrust::mr::new_delete_resource>());
  using PooledInts = thrust::mr::allocator<int, Pool>;

  // 1, 2, ..., n in pooled device memory, scanned with a custom allocator for temporaries.
  thrust::device_vector<int, PooledInts> values(n, 0, PooledInts(&pool));
  thrust::sequence(values.begin(), values.end(), 1);
  thrust::device_vector<int, PooledInts> scanned(n, 0, PooledInts(&pool));
  CountingAllocator temporaries{&device_memory};
  thrust::exclusive_scan(thrust::cuda::par(temporaries), values.begin(), values.end(), scanned.begin());
  const long long total = thrust::reduce(thrust::cuda::par(temporaries), values.begin(), values.end(), 0LL);
  const int last_exclusive = scanned[n - 1];

  // A descending sequence sorted with the same allocator (a merge sort takes temporary storage).
  thrust::device_vector<int, thrust::mr::stateless_resource_allocator<int, thrust::cuda::memory_resource>> keys(n);
  thrust::sequence(keys.begin(), keys.end(), n, -1);
  thrust::sort(thrust::cuda::par(temporaries), keys.begin(), keys.end());
  std::vector<int> sorted(n);
  thrust::copy(keys.begin(), keys.end(), sorted.begin());
  bool ascending = true;
  for (int i = 0; i < n; ++i) ascending = ascending && sorted[i] == i + 1;

  // Managed memory from the universal resource: a kernel writes it, the host reads it.
  thrust::cuda::universal_memory_resource managed;
  int* shared_squares = static_cast<int*>(thrust::raw_pointer_cast(managed.allocate(n * sizeof(int))));
  squares<<<(n + 255) / 256, 256>>>(shared_squares, n);
  if (cudaDeviceSynchronize() != cudaSuccess) return 2;
  long long sum_of_squares = 0;
  for (int i = 0; i < n; ++i) sum_of_squares += shared_squares[i];
  managed.deallocate(thrust::cuda::universal_pointer<void>(shared_squares), n * sizeof(int));

  std::printf("total %lld, last exclusive %d, sorted %s, sum of squares %lld, temporaries %s\n", total,
              last_exclusive, ascending ? "ascending" : "wrong", sum_of_squares,
              temporaries.allocations > 0 && temporaries.allocations == temporaries.deallocations ? "balanced"
                                                                                                  : "unbalanced");
  return 0;
}
