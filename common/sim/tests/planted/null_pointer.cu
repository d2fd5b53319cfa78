// A kernel that follows a null pointer: one thread is handed no buffer. The address is no
// memory at all, so the access faults, on a GPU and here alike; the simulator reports the line
// and the thread before the program dies of the fault.
#include "planted.cuh"

constexpr unsigned kThreads = 32;
constexpr unsigned kWithoutBuffer = 3;

__global__ void fill(int* buffer, int* out) {
  int* mine = threadIdx.x == kWithoutBuffer ? nullptr : buffer;
#ifdef PLANTED_FIXED
  if (mine) mine[threadIdx.x] = 1;
#else
  mine[threadIdx.x] = 1;  // expect: out-of-bounds
#endif
  out[threadIdx.x] = 2;
}

int main() {
  const planted::DeviceBuffer<int> buffer(kThreads), out(kThreads);
  fill<<<1, kThreads>>>(buffer.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return planted::compare(std::vector<int>(kThreads, 2), out.to_host());
}
