// __shared__ declarations in the forms real code writes them: of a template parameter's type,
// with a dimension that holds '>' and a template argument list, static and volatile, aligned,
// and dynamic shared memory of a templated element type through an aligned byte array. The
// kernel is launched with template arguments, one of them an expression in parentheses.
#include "planted.cuh"

constexpr unsigned kThreads = 64;

template <class T, int Copies>
struct Lanes {
  T value[Copies];
};

template <class T>
__device__ T* dynamic_tile() {
  extern __shared__ __align__(sizeof(T)) unsigned char dynamic_bytes[];
  return reinterpret_cast<T*>(dynamic_bytes);
}

template <class T, int Copies>
__global__ void reverse_twice(const T* in, T* out) {
  static __shared__ volatile T staged[kThreads * (Copies > 1 ? Copies : 1)];
  __shared__ __align__(16) Lanes<T, (Copies > 1 ? 2 : 1)> lanes[kThreads], spare;
  T* tile = dynamic_tile<T>();
  const unsigned i = threadIdx.x;
  staged[i] = in[i];
  lanes[i].value[0] = in[i];
  if (i == 0) spare.value[0] = 0;
  __syncthreads();
  tile[i] = staged[kThreads - 1 - i] + lanes[kThreads - 1 - i].value[0] + spare.value[0];
  __syncthreads();
  out[i] = tile[kThreads - 1 - i];
}

int main() {
  const std::vector<int> input = planted::test_input(kThreads);
  const planted::DeviceBuffer<int> in(input), out(kThreads);
  reverse_twice<int, (3 > 2 ? 2 : 1)><<<1, kThreads, kThreads * sizeof(int)>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) expected[i] = 2 * input[i];
  return planted::compare(expected, out.to_host());
}
