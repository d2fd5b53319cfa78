// Tiles of several warps (cooperative_groups::tiled_partition<64> ... <1024>): their sync() is a
// barrier of the tile's threads only, and their collectives (shfl, any, all) are the same
// rendezvous. The threads of a tile are the consecutive ranks [first, first + size) of the block,
// whole warps, as CUDA partitions them.
//
// Like __syncthreads, every thread of the tile must reach the same call: a member that waits at
// another call, or at a barrier of the block, or that exits, is reported, and the block stops.
#pragma once

#include <cstdint>
#include <vector>

#include "site.hpp"

namespace scanlab::sim::detail {
struct Block;
struct Thread;
}

namespace scanlab::sim::detail::tile_barrier {

enum class Kind : std::uint8_t { sync, any, all, shfl };

// A thread's part (kept by the block, so that a thread of a program without such tiles carries
// nothing of it): what it brings to the tile's rendezvous, and what it takes away.
struct Arrival {
  std::uint64_t value = 0;
  std::uint64_t result = 0;
  unsigned argument = 0;
  std::uint32_t pending = 0;  // the rendezvous it waits in: its place in BlockTiles::pending + 1; 0: none
};

// A rendezvous of one tile that some of its threads have reached.
struct Rendezvous {
  unsigned first = 0;    // the tile's first thread (linear index in the block)
  unsigned size = 0;     // the tile's size
  unsigned members = 0;  // its threads that exist (fewer in a block that is not a multiple of the size)
  unsigned arrived = 0;
  Kind kind = Kind::sync;
  const char* name = nullptr;  // what the program called, for reports
  Site site;
  unsigned source = 0;         // shfl: the rank every member reads
  // The first member that came to this tile's rendezvous by another call or kind, or asked a
  // shuffle for another rank: found when the last member arrives.
  bool diverged = false, sources_differ = false;
  unsigned odd_thread = 0;
  const char* odd_name = nullptr;
  Site odd_site;
};

// A block's part.
struct BlockTiles {
  std::vector<Rendezvous> pending;  // places of completed ones (members == 0) are taken again
  std::vector<Arrival> threads;     // by thread, from the block's first rendezvous
};

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
