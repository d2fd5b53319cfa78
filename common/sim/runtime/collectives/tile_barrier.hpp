// Tiles of several warps (cooperative_groups::tiled_partition<64> ... <1024>): their sync() is a
// barrier of the tile's threads only, and their collectives (shfl, any, all) are the same
// rendezvous. The threads of a tile are the consecutive ranks [first, first + size) of the block,
// whole warps, as CUDA partitions them.
//
// Like __syncthreads, every thread of the tile must reach the same call: a member that waits at
// another call, or at a barrier of the block, or that exits, is reported, and the block stops.
#pragma once

#include <cstdint>

#include "base/site.hpp"
#include "threads/block.hpp"

namespace scanlab::sim::detail::tile_barrier {

void begin_block(Block& b);

// The calling thread arrives at its tile's rendezvous (`size` threads, a multiple of 32) with
// `value` (shfl: `argument` is the source rank); returns its result once every member has
// arrived. sync orders the members' memory accesses before and after it for the race detector.
std::uint64_t collective(Kind kind, unsigned size, std::uint64_t value, unsigned argument, const char* name,
                         Site site);

// Every live thread of the block waits: where a tile's rendezvous is among what they wait for,
// it can never complete. Reports which members are missing and where they are, stops the block,
// and returns true; false when no tile waits.
bool report_stuck(Block& b);

// A thread exits while its tile waits for it: reported, and the block stops.
void thread_exited(Thread& t);

}  // namespace scanlab::sim::detail::tile_barrier
