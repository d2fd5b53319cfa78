// Device memory held by a static object and freed by its destructor when the program exits, as a
// library that keeps scratch space between calls does. The destructor runs among the other
// static destructors, in an order the program does not choose, so cudaFree must still work then.
#include "planted.cuh"

#include <cuda_runtime.h>

namespace {

struct KeptScratch {
  int* p = nullptr;
  ~KeptScratch() {
    if (p != nullptr) cudaFree(p);
  }
};

// Constructed before every static of default priority (GCC's init_priority), so destroyed after
// them: after whatever the runtime keeps in statics of its own, the order that a static of a
// program's first object file can get when the runtime is linked after it.
__attribute__((init_priority(101))) KeptScratch kept;  // allocated in main, freed at exit

}  // namespace

__global__ void fill(int* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<int>(i);
}

int main() {
  constexpr unsigned n = 256;
  if (cudaMalloc(&kept.p, n * sizeof(int)) != cudaSuccess) return planted::kWrongResult;
  fill<<<1, n>>>(kept.p, n);
  int last = 0;
  cudaMemcpy(&last, kept.p + n - 1, sizeof(int), cudaMemcpyDeviceToHost);
  return last == static_cast<int>(n - 1) ? planted::kCorrect : planted::kWrongResult;
}
