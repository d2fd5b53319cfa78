// Blocks that wait for blocks which have not started. Under the default schedule (16 blocks at
// once) such a launch would hang; a GPU holds many more blocks at once, and where it holds the
// whole grid, the kernel completes there. The scheduler then admits every block and goes on
// (scheduler.cpp); this module says whether the grid fits, and warns that the kernel relied on it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "findings/report.hpp"
#include "findings/wait_picture.hpp"
#include "threads/launch.hpp"

namespace scanlab::sim::detail::coresidency {

// How many blocks of a launch the device (an H100, device_limits.hpp) holds at once.
struct GridFit {
  unsigned threads_per_block = 0;
  std::size_t shared_bytes_per_block = 0;  // dynamic and static, as far as the blocks declared it
  unsigned per_multiprocessor = 0;
  unsigned capacity = 0;  // per_multiprocessor x the multiprocessors
  unsigned blocks = 0;    // the grid's
  bool fits() const { return blocks <= capacity; }
};
GridFit grid_fit(const Launch& launch, std::size_t shared_bytes_per_block);

// "... 132 multiprocessors x 8 blocks each (blocks of 256 threads and 1028 bytes of shared
// memory) = 1056 at once": for the deadlock report of a grid that does not fit, and the warning.
std::string describe(const GridFit& fit);

// The warning of a launch that completed only because all its blocks ran at once; `waiting`:
// a thread that waited for a block not yet started, where it waited; `blocks`: the launch's
// blocks when the running ones all waited, for its picture.
void report_relied_on_coresidency(const Launch& launch, const GridFit& fit, const Party& waiting,
                                  std::optional<WaitPicture> blocks);

}  // namespace scanlab::sim::detail::coresidency
