// What the simulated device allows (an H100's limits): launches and __shared__ declarations are
// checked against these, and cudaGetDeviceProperties reports them.
#pragma once

#include <cstddef>

namespace scanlab::sim::detail {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kMaxThreadsPerBlock = 1024;
constexpr std::size_t kDefaultSharedBytesPerBlock = 48 * 1024;  // without an opt-in
constexpr std::size_t kMaxSharedBytesPerBlock = 227 * 1024;     // H100 opt-in limit
constexpr unsigned kMaxResidentBlocks = 64;                      // SCANLAB_SIM_RESIDENT_BLOCKS at most

}  // namespace scanlab::sim::detail
