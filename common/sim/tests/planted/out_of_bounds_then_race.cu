// Two bugs in one kernel: an off-by-one store past the end of a buffer, and later a missing
// barrier. The out-of-bounds store does not stop the kernel (on a GPU a small overrun usually
// runs on), so the race after it is found in the same run.
#include "planted.cuh"

constexpr unsigned kThreads = 64;

__global__ void add_neighbour(const int* in, int* shifted, int* out) {
  __shared__ int tile[kThreads];
  const unsigned i = threadIdx.x;
#ifdef PLANTED_FIXED
  if (i + 1 < kThreads) shifted[i + 1] = in[i];
#else
  shifted[i + 1] = in[i];  // expect: out-of-bounds
#endif
  tile[i] = in[i];
  __syncthreads();
  const int next = tile[(i + 1) % kThreads];  // expect: race
#ifdef PLANTED_FIXED
  __syncthreads();  // every read of a neighbour happens before any thread overwrites its own
#endif
  tile[i] += next;  // expect: race
  __syncthreads();
  out[i] = tile[i];
}

int main() {
  const std::vector<int> input = planted::test_input(kThreads);
  const planted::DeviceBuffer<int> in(input), shifted(kThreads), out(kThreads);
  add_neighbour<<<1, kThreads>>>(in.get(), shifted.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) expected[i] = input[i] + input[(i + 1) % kThreads];
  return planted::compare(expected, out.to_host());
}
