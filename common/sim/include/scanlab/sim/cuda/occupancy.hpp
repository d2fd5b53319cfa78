// A kernel's attributes and the occupancy calculator: what the simulated device's limits allow a
// kernel, answered the same for every kernel.
#pragma once

#include <cstddef>

#include <scanlab/sim/cuda/device.hpp>
#include <scanlab/sim/cuda/errors.hpp>

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};

namespace scanlab::sim::detail {
cudaError_t set_max_dynamic_shared_memory(int bytes);
}
// The simulator keeps one dynamic shared memory limit for all kernels (the largest asked for).
template <class F>
cudaError_t cudaFuncSetAttribute(F*, cudaFuncAttribute attr, int value) {
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize)
    return scanlab::sim::detail::set_max_dynamic_shared_memory(value);
  return cudaSuccess;
}
namespace scanlab::sim::detail {
// Blocks one multiprocessor of the simulated device holds at once (its threads, block slots and
// shared memory; registers not counted).
int occupancy_blocks_per_multiprocessor(int block_size, std::size_t dynamic_shared_bytes);
}
template <class F>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, F*, int block_size, std::size_t dynamic_shared_bytes) {
  *blocks = scanlab::sim::detail::occupancy_blocks_per_multiprocessor(block_size, dynamic_shared_bytes);
  return cudaSuccess;
}
// The largest block (or the limit given), and enough blocks of it to fill every multiprocessor.
template <class F>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, F kernel,
                                               std::size_t dynamic_shared_bytes = 0, int block_size_limit = 0) {
  *block_size = block_size_limit > 0 && block_size_limit < 1024 ? block_size_limit : 1024;
  int per_multiprocessor = 0, multiprocessors = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, *block_size, dynamic_shared_bytes);
  cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0);
  *min_grid_size = per_multiprocessor * multiprocessors;
  return cudaSuccess;
}
