// Both warps of a block read the block's carry (in shared and in global memory), and the thread
// that read it first then resets it, separated from the other warp's reads by __syncwarp alone:
// a race. A shadow cell remembers two of the 64 readers, and the first is the resetter itself,
// so the race is found only if the second stands for the other warp. The reads are staged with
// atomics (which never race) to make that case certain: the resetter first, then the rest of
// its warp, then the other warp. With -DPLANTED_FIXED a barrier comes before the reset.
#include "planted.cuh"

constexpr unsigned kThreads = 64;  // two warps
constexpr unsigned kBlocks = 2;
constexpr unsigned kWarp = 32;
constexpr unsigned kNobody = ~0u;

__global__ void add_carry(int* data, int* carries) {
  __shared__ int carry;
  __shared__ unsigned first_reader, stage, readers;
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + t;
  if (t == 0) {
    carry = carries[blockIdx.x];
    first_reader = kNobody;
    stage = 0;
    readers = 0;
  }
  __syncthreads();
  const bool first = atomicCAS(&first_reader, kNobody, t) == kNobody;
  const unsigned my_stage = first ? 0 : (t / kWarp == atomicAdd(&first_reader, 0) / kWarp ? 1 : 2);
  while (atomicAdd(&stage, 0) < my_stage) {
  }
  const int value = data[i] + carry + carries[blockIdx.x];  // expect: race
  const unsigned have_read = atomicAdd(&readers, 1) + 1;
  if (have_read == 1 || have_read == kWarp) atomicExch(&stage, have_read == 1 ? 1 : 2);
#ifdef PLANTED_FIXED
  __syncthreads();
#else
  __syncwarp();
#endif
  if (first) {
    while (atomicAdd(&readers, 0) < blockDim.x) {
    }
    carry = carries[blockIdx.x] = 0;  // expect: race
  }
  data[i] = value;
}

int main() {
  const unsigned n = kThreads * kBlocks;
  const std::vector<int> input = planted::test_input(n);
  const std::vector<int> carries_in = planted::test_input(kBlocks);
  const planted::DeviceBuffer<int> data(input), carries(carries_in);
  add_carry<<<kBlocks, kThreads>>>(data.get(), carries.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = input[i] + 2 * carries_in[i / kThreads];
  return planted::compare(expected, data.to_host());
}
