// The pattern of NVIDIA's helper_math.h: where __CUDACC__ is not defined (host compilers, and the
// scanlab simulator, which must leave it undefined), the header defines host versions of CUDA's
// math functions. Those must be overloads beside the simulator's own, not redefinitions of them;
// kernels and host code then call them as before, and `using namespace std;` code too.
#include <algorithm>
#include <cmath>
#include <cstdio>

#ifndef __CUDACC__
inline int max(int a, int b) { return a > b ? a : b; }
inline int min(int a, int b) { return a < b ? a : b; }
inline float fminf(float a, float b) { return a < b ? a : b; }
inline float fmaxf(float a, float b) { return a > b ? a : b; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
#endif

__global__ void clamp_and_scale(const int* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fminf(fmaxf(static_cast<float>(max(min(in[i], 50), 2)), 4.0f), 40.0f) * rsqrtf(4.0f);
}

namespace uses_std {
using namespace std;
unsigned widest(unsigned a, int b) { return max(a, static_cast<unsigned>(b)) + min(3u, 7u); }
}  // namespace uses_std

int main() {
  constexpr int n = 64;
  int host[n];
  for (int i = 0; i < n; ++i) host[i] = i;
  int* in = nullptr;
  float* out = nullptr;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  clamp_and_scale<<<2, 32>>>(in, out, n);
  float result[n];
  cudaMemcpy(result, out, sizeof result, cudaMemcpyDeviceToHost);
  float sum = 0;
  for (float x : result) sum += x;
  std::printf("sum %.1f, widest %u, max of unsigned %u\n", sum, uses_std::widest(5u, 9), max(7u, 12u));
  cudaFree(in);
  cudaFree(out);
  return 0;
}
