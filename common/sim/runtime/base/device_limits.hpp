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

// How many blocks an H100 SXM holds at once: per multiprocessor, as many as fit in its threads,
// its block slots and its shared memory (registers are not known here, so not counted).
constexpr unsigned kMultiprocessors = 132;
constexpr unsigned kMaxThreadsPerMultiprocessor = 2048;
constexpr unsigned kMaxBlocksPerMultiprocessor = 32;
constexpr std::size_t kSharedBytesPerMultiprocessor = 228 * 1024;
constexpr std::size_t kReservedSharedBytesPerBlock = 1024;  // what the system takes of it for each block
// The most blocks the device holds at once (blocks of at most 64 threads): the simulator's
// resident slots at most, each with its shared-memory arena.
constexpr unsigned kMaxCoresidentBlocks = kMultiprocessors * kMaxBlocksPerMultiprocessor;

// Blocks of `threads` threads and `shared_bytes` of shared memory (static and dynamic) one
// multiprocessor holds at once, as cudaOccupancyMaxActiveBlocksPerMultiprocessor counts them:
// threads are allotted by whole warps.
constexpr unsigned blocks_per_multiprocessor(unsigned threads, std::size_t shared_bytes) {
  const unsigned warps = (threads + kWarpSize - 1) / kWarpSize;
  if (warps == 0) return 0;
  const unsigned by_threads = kMaxThreadsPerMultiprocessor / (warps * kWarpSize);
  const std::size_t by_shared = kSharedBytesPerMultiprocessor / (shared_bytes + kReservedSharedBytesPerBlock);
  unsigned n = by_threads < kMaxBlocksPerMultiprocessor ? by_threads : kMaxBlocksPerMultiprocessor;
  if (by_shared < n) n = static_cast<unsigned>(by_shared);
  return n;
}

}  // namespace scanlab::sim::detail
