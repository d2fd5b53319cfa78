// The most common bug of an exclusive scan: shifting the input right by one with x[i - 1]
// for every i, 0 included. Thread 0 reads the element before the array, which a GPU does not
// trap and memcheck reports; here the report says how far before which buffer or variable it
// lies, in its own memory space: in global memory also when the buffer is the program's first
// cudaMalloc, in shared memory when the array is the block's first __shared__ variable.
#include "planted.cuh"

constexpr unsigned kElements = 64;

__global__ void shift_right(const int* in, int* out, int identity) {
  const int i = threadIdx.x;  // signed, as the textbook writes it: i - 1 is -1 at thread 0
#ifdef PLANTED_FIXED
  out[i] = i == 0 ? identity : in[i - 1];
#else
  out[i] = in[i - 1];  // expect: out-of-bounds
  if (i == 0) out[i] = identity;
#endif
}

__global__ void shift_right_in_shared(const int* in, int* out, int identity) {
  __shared__ int tile[kElements];
  const int i = threadIdx.x;
  tile[i] = in[i];
  __syncthreads();
#ifdef PLANTED_FIXED
  out[i] = i == 0 ? identity : tile[i - 1];
#else
  out[i] = tile[i - 1];  // expect: out-of-bounds
  if (i == 0) out[i] = identity;
#endif
}

// One shift on a device of its own: an out-of-bounds access sticks, as on a GPU (every later call
// returns its error and no later kernel runs), so the next kernel starts after cudaDeviceReset.
template <class Kernel>
int shift(Kernel kernel, const std::vector<int>& input) {
  int status = planted::kWrongResult;
  {
    const planted::DeviceBuffer<int> in(input), out(kElements);
    kernel<<<1, kElements>>>(in.get(), out.get(), 0);
    if (planted::kernels_succeeded()) {
      std::vector<int> expected{0};
      expected.insert(expected.end(), input.begin(), input.end() - 1);
      status = planted::compare(expected, out.to_host());
    }
  }
  cudaDeviceReset();
  return status;
}

int main() {
  const std::vector<int> input = planted::test_input(kElements);
  const int in_global = shift(shift_right, input);
  const int in_shared = shift(shift_right_in_shared, input);
  return in_global != planted::kCorrect ? in_global : in_shared;
}
