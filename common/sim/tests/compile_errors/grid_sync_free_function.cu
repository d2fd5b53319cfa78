// A grid-wide barrier written as the free function, as NVIDIA's reductionMultiBlockCG sample
// writes it: refused at the program's line with the feature named, as grid.sync() is.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void two_phases(int* data) {
  cg::grid_group grid = cg::this_grid();
  data[grid.thread_rank()] = 1;
  cg::sync(grid);  // expect: compile-error
  data[0] += data[grid.size() - 1];
}

int main() {
  int* data = nullptr;
  cudaMalloc(&data, 64 * sizeof(int));
  two_phases<<<2, 32>>>(data);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
