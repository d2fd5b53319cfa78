// A cooperative launch and its grid barrier: a sum in two phases, each block's partial sum, then
// block 0 adding them up, then every block copying the total, with grid.sync() between the phases.
// One mistake per mode (the fixed twin makes none):
//   sum        the grid.sync() after the partial sums is left out: block 0 reads partial sums
//              that nothing orders after their blocks wrote them (a race between blocks);
//   exit       the last block returns before the grid.sync(): the other blocks wait in it for
//              a block that never comes;
//   too-large  the grid is one block more than the device holds at once (occupancy times its
//              multiprocessors): the launch fails with cudaErrorCooperativeLaunchTooLarge, and the
//              program checks that it does. Launched with cudaLaunchKernelEx and the attribute
//              cudaLaunchAttributeCooperative; the other modes with cudaLaunchCooperativeKernel.
//   usage: cooperative_grid_sum sum|exit|too-large
#include <cooperative_groups.h>

#include <cstring>

#include "planted.cuh"

namespace cg = cooperative_groups;

constexpr unsigned kThreads = 128;
enum Mode { kSum, kExit, kTooLarge };

__global__ void grid_sum(const int* in, unsigned n, int* partial, int* total, int* copies, int mode) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ int sums[kThreads];
  int sum = 0;
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) sum += in[i];
  sums[threadIdx.x] = sum;
  block.sync();
  for (unsigned stride = kThreads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) sums[threadIdx.x] += sums[threadIdx.x + stride];
    block.sync();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];  // expect: race
#ifndef PLANTED_FIXED
  if (mode == kExit && grid.block_rank() == grid.num_blocks() - 1) return;
  if (mode != kSum)
#endif
    grid.sync();  // expect: barrier-divergence
  if (grid.block_rank() == 0 && threadIdx.x == 0) {
    int all = 0;
    for (unsigned b = 0; b < grid.num_blocks(); ++b) all += partial[b];  // expect: race
    *total = all;
  }
  cg::sync(grid);  // the free function, as NVIDIA's samples write it
  if (threadIdx.x == 0) copies[blockIdx.x] = *total;
}

int main(int argc, char** argv) {
  const Mode mode = argc > 1 && std::strcmp(argv[1], "exit") == 0        ? kExit
                    : argc > 1 && std::strcmp(argv[1], "too-large") == 0 ? kTooLarge
                                                                         : kSum;
  int per_multiprocessor = 0, multiprocessors = 0;
  PLANTED_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, grid_sum, kThreads, 0));
  PLANTED_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0));
  const unsigned capacity = static_cast<unsigned>(per_multiprocessor * multiprocessors);
  unsigned blocks = mode == kTooLarge ? capacity : 24;
#ifndef PLANTED_FIXED
  if (mode == kTooLarge) blocks += 1;
#endif
  unsigned n = blocks * kThreads * 3 + 5;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), partial(blocks), total(1), copies(blocks);
  const int* in_pointer = in.get();
  int* partial_pointer = partial.get();
  int* total_pointer = total.get();
  int* copies_pointer = copies.get();
  int mode_argument = mode;
  cudaError_t launched;
  if (mode == kTooLarge) {
    cudaLaunchAttribute cooperative;
    cooperative.id = cudaLaunchAttributeCooperative;
    cooperative.val.cooperative = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(kThreads);
    config.attrs = &cooperative;
    config.numAttrs = 1;
    launched = cudaLaunchKernelEx(&config, grid_sum, in_pointer, n, partial_pointer,  // expect: invalid-launch
                                  total_pointer, copies_pointer, mode_argument);
  } else {
    void* arguments[] = {&in_pointer, &n, &partial_pointer, &total_pointer, &copies_pointer, &mode_argument};
    launched = cudaLaunchCooperativeKernel((void*)grid_sum, dim3(blocks), dim3(kThreads), arguments);
  }
  if (mode == kTooLarge && launched != cudaSuccess) {
    std::printf("a grid of %u blocks, %u at once: the launch returned %s\n", blocks, capacity, cudaGetErrorName(launched));
    return cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge ? planted::kCorrect : planted::kWrongResult;
  }
  if (launched != cudaSuccess || !planted::kernels_succeeded()) return planted::kWrongResult;
  int sum = 0;
  for (int x : input) sum += x;
  const int status = planted::compare(std::vector<int>(blocks, sum), copies.to_host());
  if (status == planted::kCorrect) std::printf("every block of %u copied the grid's total %d\n", blocks, sum);
  return status;
}
