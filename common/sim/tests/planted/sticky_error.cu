// After an illegal address a GPU's context is lost: every later CUDA call that uses the device
// returns the error (cudaGetLastError too, every time), no later kernel runs, and only
// cudaDeviceReset gives the program a device again. The kernel's bounds check is off by one
// (<= instead of <); the program then checks what each later call returns, as a GPU returns it.
#include "planted.cuh"

constexpr unsigned kElements = 64;

__global__ void fill(int* out, unsigned n) {
  const unsigned i = threadIdx.x;
#ifdef PLANTED_FIXED
  if (i < n) out[i] = 1;
#else
  if (i <= n) out[i] = 1;  // expect: out-of-bounds
#endif
}

int failures = 0;

void expect(const char* call, cudaError_t returned, cudaError_t expected) {
  if (returned == expected) return;
  std::fprintf(stderr, "%s returned %s, a GPU returns %s\n", call, cudaGetErrorName(returned), cudaGetErrorName(expected));
  ++failures;
}

int main() {
#ifdef PLANTED_FIXED
  const cudaError_t lost = cudaSuccess;
#else
  const cudaError_t lost = cudaErrorIllegalAddress;
#endif
  int* out = nullptr;
  PLANTED_CHECK(cudaMalloc(&out, kElements * sizeof(int)));
  fill<<<1, kElements + 32>>>(out, kElements);
  expect("cudaDeviceSynchronize", cudaDeviceSynchronize(), lost);
  expect("cudaGetLastError", cudaGetLastError(), lost);
  expect("cudaGetLastError, again", cudaGetLastError(), lost);
  expect("cudaPeekAtLastError", cudaPeekAtLastError(), lost);
  int host[kElements] = {};
  expect("cudaMemcpy", cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost), lost);
  int* more = nullptr;
  expect("cudaMalloc", cudaMalloc(&more, sizeof(int)), lost);
  expect("cudaMemset", cudaMemset(out, 0, sizeof(int)), lost);
  fill<<<1, kElements>>>(out, kElements);
  expect("the next launch's cudaGetLastError", cudaGetLastError(), lost);
  expect("cudaFree", cudaFree(out), lost);
  if (more) cudaFree(more);
  // A reset gives the program a working device again.
  expect("cudaDeviceReset", cudaDeviceReset(), cudaSuccess);
  expect("cudaMalloc after cudaDeviceReset", cudaMalloc(&more, sizeof(int)), cudaSuccess);
  expect("cudaGetLastError after cudaDeviceReset", cudaGetLastError(), cudaSuccess);
  cudaFree(more);
  if (failures == 0) std::printf("every call after the error returned %s\n", cudaGetErrorName(lost));
  return failures ? planted::kWrongResult : planted::kCorrect;
}
