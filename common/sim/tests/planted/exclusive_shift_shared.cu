// The exclusive scan's shift by one in shared memory: thread 0 reads tile[-1], 4 bytes before
// the block's first shared variable. The report names that variable, in shared memory, not
// whatever lies below the block's shared memory.
#include "planted.cuh"

constexpr unsigned kElements = 64;

__global__ void shift_right(const int* in, int* out, int identity) {
  __shared__ int tile[kElements];
  const int i = threadIdx.x;  // signed, as the textbook writes it: i - 1 is -1 at thread 0
  tile[i] = in[i];
  __syncthreads();
#ifdef PLANTED_FIXED
  out[i] = i == 0 ? identity : tile[i - 1];
#else
  out[i] = tile[i - 1];  // expect: out-of-bounds
  if (i == 0) out[i] = identity;
#endif
}

int main() {
  const std::vector<int> input = planted::test_input(kElements);
  const planted::DeviceBuffer<int> in(input), out(kElements);
  shift_right<<<1, kElements>>>(in.get(), out.get(), 0);
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected{0};
  expected.insert(expected.end(), input.begin(), input.end() - 1);
  return planted::compare(expected, out.to_host());
}
