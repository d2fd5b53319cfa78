// Host code at the host compiler's speed, its checks kept: loops over host arrays skip the
// simulator's access hook (tools/host_access_filter.py); a store through a cudaMalloc pointer and
// a read of a __managed__ variable while a kernel may still run reach it, and are reported; a
// kernel run on the thread that ran the loops has every access checked (a race in shared memory).
#include <cstdio>
#include <vector>

__managed__ int launched_threads;

__global__ void count_threads(int* out) {
  atomicAdd(&launched_threads, 1);
  out[threadIdx.x] = threadIdx.x;
}

__global__ void reverse_without_barrier(int* data) {
  __shared__ int tile[32];
  tile[threadIdx.x] = data[threadIdx.x];
  data[threadIdx.x] = tile[31 - threadIdx.x];  // expect: shared-memory-race (and a read of what no thread wrote yet)
}

int main() {
  const int n = 1 << 22;
  std::vector<int> input(n);
  for (int i = 0; i < n; ++i) input[i] = i % 7;
  std::vector<long long> prefix(n);
  long long running = 0;
  for (int i = 0; i < n; ++i) prefix[i] = running += input[i];

  int* device = nullptr;
  cudaMalloc(&device, 32 * sizeof(int));
  device[0] = 1;  // expect: host-writes-device-memory
  count_threads<<<1, 32>>>(device);
  const int seen_early = launched_threads;  // expect: host-reads-managed-memory-early
  cudaDeviceSynchronize();
  reverse_without_barrier<<<1, 32>>>(device);
  cudaDeviceSynchronize();
  std::printf("last prefix %lld, threads %d (early %d)\n", prefix[n - 1], launched_threads, seen_early);
  cudaFree(device);
  return 0;
}
