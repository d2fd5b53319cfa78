// A cooperative launch of a kernel kept in a void* variable: the simulator calls a kernel by its
// type, which the variable has lost, and says so at the program's line instead of inside a header.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void two_phases(int* data) {
  cg::grid_group grid = cg::this_grid();
  data[grid.thread_rank()] = 1;
  grid.sync();
  data[0] += data[grid.size() - 1];
}

int main() {
  int* data = nullptr;
  cudaMalloc(&data, 64 * sizeof(int));
  void* args[] = {&data};
  const void* kernel = (void*)two_phases;
  cudaLaunchCooperativeKernel(kernel, 2, 32, args);  // expect: compile-error
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
