// One kernel launch while it runs: its configuration, and how it ends.
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/site.hpp"
#include "scanlab/sim/cuda.hpp"

namespace scanlab::sim::detail {

struct Launch {
  std::uint32_t id = 0;
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared_bytes = 0;
  Site site;
  void (*thread_entry)(const void*) = nullptr;
  const void* kernel_call = nullptr;
  unsigned threads_per_block = 0;
  unsigned block_count = 0;
  bool cooperative = false;  // cudaLaunchCooperativeKernel: every block resident at once, grid barriers
  bool race_check = true;  // SCANLAB_SIM_RACECHECK, read once per launch
  bool parallel = false;   // blocks run on several OS threads
  bool progress = false;  // some resident block did more than spin in the current round
  bool aborted = false;
  cudaError_t error = cudaSuccess;
};

// A block's or thread's index from its linear number, as CUDA numbers them (x fastest).
inline uint3 unflatten(unsigned linear, dim3 extent) {
  return uint3{linear % extent.x, (linear / extent.x) % extent.y, linear / (extent.x * extent.y)};
}

}  // namespace scanlab::sim::detail
