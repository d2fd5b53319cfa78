// Code for the device pass alone, as public programs write it: a kernel whose whole body is
// guarded by the architecture, a device function specialized for newer GPUs, and a
// __host__ __device__ helper with a path per pass. On the simulator the kernel must run
// (not compile to nothing) and the specialization must be the one used.
#include <cstdio>

template <class T>
__device__ T warp_sum(T value) {
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  return value;
}

#if __CUDA_ARCH__ >= 800
template <>
__device__ int warp_sum<int>(int value) {
  return __reduce_add_sync(0xffffffffu, value) + 1000;  // marks the specialization as used
}
#endif

__host__ __device__ inline int pass_number() {
#ifdef __CUDA_ARCH__  // expect: host-pass-reading
  return 2;
#else
  return 1;
#endif
}

__global__ void sums(int* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  const int total = warp_sum(static_cast<int>(threadIdx.x));
  if (threadIdx.x == 0) out[0] = total;
#endif
}

int main() {
  int* out = nullptr;
  cudaMalloc(&out, sizeof(int));
  cudaMemset(out, 0, sizeof(int));
  sums<<<1, 32>>>(out);
  int total = 0;
  cudaMemcpy(&total, out, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(out);
  std::printf("total %d, host pass %d\n", total, pass_number());
  return total == 1496 ? 0 : 1;
}
