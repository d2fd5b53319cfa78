// Host code that calls __syncthreads() and __syncthreads_count() itself. nvcc rejects that (a
// __device__ function called from a __host__ one); the simulator, which compiles both sides with
// the host compiler, reports each call at its line and goes on, the barrier doing nothing there
// and the counting form returning 0. The plain barrier and the counting form take different
// paths through the runtime, so both are called. Built by nvcc, the program leaves the calls
// out (nvcc would not compile them) and is its fixed twin.
#include "planted.cuh"

constexpr unsigned kThreads = 64;

__global__ void count_positive(const int* in, int* count) {
  const int positives = __syncthreads_count(in[threadIdx.x] > 0);
  __syncthreads();
  if (threadIdx.x == 0) *count = positives;
}

int main() {
  std::vector<int> host(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) host[i] = i % 3 == 0 ? 1 : -1;
#if defined(SCANLAB_SIM) && !defined(PLANTED_FIXED)
  __syncthreads();  // expect: unsupported
  const int counted_on_host = __syncthreads_count(1);  // expect: unsupported
  if (counted_on_host != 0) return planted::kWrongResult;
#endif
  const planted::DeviceBuffer<int> in(host), count(1);
  count_positive<<<1, kThreads>>>(in.get(), count.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return planted::compare(std::vector<int>{(kThreads + 2) / 3}, count.to_host());
}
