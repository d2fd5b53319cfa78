// A grid-wide barrier (cooperative launch): the simulator does not run one, and says so at the
// program's line instead of inside a header.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void two_phases(int* data) {
  cg::grid_group grid = cg::this_grid();
  data[grid.thread_rank()] = 1;
  grid.sync();  // expect: compile-error
  data[0] += data[grid.size() - 1];
}

int main() {
  int* data = nullptr;
  cudaMalloc(&data, 64 * sizeof(int));
  void* args[] = {&data};
  cudaLaunchCooperativeKernel((void*)two_phases, 2, 32, args);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
