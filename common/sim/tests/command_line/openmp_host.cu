// A program built the way many public CUDA programs are: a kernel, and host code that uses
// OpenMP, so that its build line hands -fopenmp to the host compiler through -Xcompiler.
#include <omp.h>

#include <cstdio>
#include <vector>

__global__ void square(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

int main() {
  constexpr int kCount = 1000;
  std::vector<int> host(kCount);
  for (int i = 0; i < kCount; ++i) host[i] = i;
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, kCount * sizeof(int));
  cudaMalloc(&out, kCount * sizeof(int));
  cudaMemcpy(in, host.data(), kCount * sizeof(int), cudaMemcpyHostToDevice);
  square<<<(kCount + 255) / 256, 256>>>(in, out, kCount);
  cudaMemcpy(host.data(), out, kCount * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(in);
  cudaFree(out);

  long long sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < kCount; ++i) sum += host[i];
  // Sum of squares 0..999 = 332833500; the thread count proves libgomp was linked and used.
  std::printf("sum %lld, openmp threads %d\n", sum, omp_get_max_threads());
  return sum == 332833500LL ? 0 : 1;
}
