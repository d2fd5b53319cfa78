// A double-buffered block scan in the kernel's dynamic shared memory, two arrays of blockDim.x
// elements, launched with the bytes of one: every access to the second array lies past the end
// of what the launch gave. The fix is the launch's size, at the launch's line, told once for all
// those accesses. With -DPLANTED_FIXED the launch passes the bytes of both arrays.
#include "planted.cuh"

constexpr unsigned kThreads = 32;

__global__ void double_buffered_scan(const int* in, int* out) {
  extern __shared__ int buffers[];
  int* front = buffers;
  int* back = buffers + blockDim.x;
  front[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    const int sum = threadIdx.x >= stride ? front[threadIdx.x - stride] + front[threadIdx.x] : front[threadIdx.x];  // expect: out-of-bounds
    back[threadIdx.x] = sum;  // expect: out-of-bounds
    __syncthreads();
    int* const swap = front;
    front = back;
    back = swap;
  }
  out[threadIdx.x] = front[threadIdx.x];  // expect: out-of-bounds
}

int main() {
  const std::vector<int> input = planted::test_input(kThreads);
  const planted::DeviceBuffer<int> in(input), out(kThreads);
#ifdef PLANTED_FIXED
  constexpr std::size_t kBuffers = 2;
#else
  constexpr std::size_t kBuffers = 1;
#endif
  double_buffered_scan<<<1, kThreads, kBuffers * kThreads * sizeof(int)>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return planted::compare(planted::inclusive_scan(input), out.to_host());
}
