// A grid-wide barrier made of an arrival counter: each block adds its section's sum to a grand
// total, counts itself in, and waits until every block of the grid has; then it copies the
// total. Every block waits for every other, so the kernel completes only if all of them run at
// once. Launched with <<<...>>>, CUDA promises no such thing; whether a GPU holds the grid
// depends on its multiprocessors and on what each block takes of one (here the dynamic shared
// memory: 100 KiB by default, two blocks to a multiprocessor of an H100, 264 blocks at once).
// The default grid of 200 blocks fits, so the simulator runs it to the end and warns that it
// relied on that; a grid of 300 does not, and hangs.
//   usage: grid_barrier [blocks] [shared bytes per block]
#include "planted.cuh"

constexpr unsigned kThreads = 64;  // elements per block, one per thread

__global__ void sum_then_wait_for_all(const int* in, int* grand_total, unsigned* arrived, int* totals) {
  extern __shared__ int partial[];
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * kThreads + t];
  for (unsigned stride = kThreads / 2; stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride) partial[t] += partial[t + stride];
  }
  if (t == 0) {
    atomicAdd(grand_total, partial[0]);
    __threadfence();  // the sum is added before the arrival that announces it
    atomicAdd(arrived, 1u);
    while (atomicAdd(arrived, 0u) < gridDim.x) {  // expect: co-residency, deadlock
    }
    __threadfence();
    totals[blockIdx.x] = atomicAdd(grand_total, 0);
  }
}

int main(int argc, char** argv) {
  const unsigned blocks = planted::argument(argc, argv, 1, 200);
  const unsigned shared_bytes = planted::argument(argc, argv, 2, 100 * 1024);
  const std::vector<int> input = planted::test_input(std::size_t{blocks} * kThreads);
  const planted::DeviceBuffer<int> in(input), grand_total(1), totals(blocks);
  const planted::DeviceBuffer<unsigned> arrived(1);
  PLANTED_CHECK(cudaFuncSetAttribute(sum_then_wait_for_all, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
  sum_then_wait_for_all<<<blocks, kThreads, shared_bytes>>>(  // expect: co-residency
      in.get(), grand_total.get(), arrived.get(), totals.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  int sum = 0;
  for (int x : input) sum += x;
  const int status = planted::compare(std::vector<int>(blocks, sum), totals.to_host());
  if (status == planted::kCorrect) std::printf("every block of %u copied the grid's total %d\n", blocks, sum);
  return status;
}
