// A coalesced group inside a branch that a third of the threads take, with the others already
// waiting at the barrier after it: the group is the lanes of each warp that took the branch, so
// one atomicAdd per warp adds exactly the number of those threads. Must run clean.
#include <cooperative_groups.h>

#include "planted.cuh"

namespace cg = cooperative_groups;

constexpr unsigned kThreads = 128;
constexpr unsigned kEvery = 3;

__global__ void count_every_third(int* count, int* atomics_used) {
  __shared__ int in_block;
  if (threadIdx.x == 0) in_block = 0;
  __syncthreads();
  if (threadIdx.x % kEvery == 0) {
    cg::coalesced_group taken = cg::coalesced_threads();
    if (taken.thread_rank() == 0) {
      atomicAdd(&in_block, static_cast<int>(taken.num_threads()));
      atomicAdd(atomics_used, 1);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) count[blockIdx.x] = in_block;
}

int main() {
  constexpr unsigned kBlocks = 2;
  const planted::DeviceBuffer<int> count(kBlocks), atomics_used(1);
  count_every_third<<<kBlocks, kThreads>>>(count.get(), atomics_used.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  const int per_block = (kThreads + kEvery - 1) / kEvery;
  if (const int status = planted::compare(std::vector<int>(kBlocks, per_block), count.to_host())) return status;
  // One atomic per warp: the group holds every lane of the warp that took the branch.
  return planted::compare({static_cast<int>(kBlocks * kThreads / 32)}, atomics_used.to_host());
}
