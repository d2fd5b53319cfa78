// Declarations and launches as real code writes them, which must build and run clean:
// several variables in one __shared__ statement (the textbook's style), a shared pointer
// declarator, and a launch spelt `<< <...>> >` the way a code formatter leaves it.
#include "planted.cuh"

constexpr unsigned kThreads = 64;

__global__ void first_and_last(const int* in, int* out) {
  __shared__ int first, last, values[kThreads];
  __shared__ const int *source;
  if (threadIdx.x == 0) source = in;
  __syncthreads();
  values[threadIdx.x] = source[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) first = values[0];
  if (threadIdx.x == kThreads - 1) last = values[kThreads - 1];
  __syncthreads();
  out[threadIdx.x] = first + last;
}

int main() {
  const std::vector<int> input = planted::test_input(kThreads);
  const planted::DeviceBuffer<int> in(input), out(kThreads);
  first_and_last<< <1, kThreads >> >(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return planted::compare(std::vector<int>(kThreads, input.front() + input.back()), out.to_host());
}
