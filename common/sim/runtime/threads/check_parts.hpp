// What the checks (checks/) keep of a thread and of a block: the parts of Thread and Block that
// the race detector, the memory model, the memory check and the counters set up and write,
// declared here so that the model of threads and blocks stands below the modules that use it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/device_limits.hpp"
#include "base/mark_map.hpp"
#include "scanlab/sim/counters.hpp"

namespace scanlab::sim::detail::race_detector {

// A thread's part: happens-before among the lanes of its warp. Lane k's clock is the latest
// __syncwarp generation of its block in which lane k took part that this thread has heard of
// (directly or through other lanes); an access of lane k at generation g is ordered before
// this thread's accesses once that clock passes g.
using LaneClocks = std::array<std::uint32_t, kWarpSize>;

// Happens-before among the warps of a block, through the sync() of tiles of several warps: entry
// [v][w] is the latest such generation in which warp w took part that warp v has heard of. A tile
// holds whole warps, so every lane of a warp knows the same: one row a warp, not one a thread.
constexpr unsigned kMaxWarpsPerBlock = kMaxThreadsPerBlock / kWarpSize;
using WarpClocks = std::array<std::array<std::uint32_t, kMaxWarpsPerBlock>, kMaxWarpsPerBlock>;

// A block's part: its run, which tells its shared-memory records from those of every other
// block that used the same arena; its __syncwarp generation; and the segment of the launch's
// table (race_detector.cpp) that its global-memory accesses of this stretch name. Ordering
// between blocks is memory_order.hpp's.
struct BlockClocks {
  std::uint32_t run = 0;         // this block's run: unique among all blocks started in the process
  std::uint32_t generation = 0;  // __syncwarp joins in this slot so far: grows across the slot's blocks
  std::uint32_t segment = 0;     // 0: none yet in this block
  std::uint32_t segment_interval = 0;
  std::uint32_t segment_clock = 0;
  std::uint32_t segment_generation = 0;
  std::unique_ptr<WarpClocks> tile_clocks;  // from the block's first sync of a multi-warp tile
  // The same among warps that hand off through a barrier object in shared memory (cuda::barrier,
  // mbarrier): kept apart from the tiles' so that a race report speaks of tiles only where tiles were used.
  std::unique_ptr<WarpClocks> handoff_clocks;  // from the block's first such hand-off
  // The sizes of the tiles of fewer than 32 threads that the block's threads made with
  // tiled_partition (cooperative_groups.cpp), one bit each (a size is a power of two: its own
  // bit). Such a tile's sync() reaches the checks as a __syncwarp() of its lanes, so a race
  // between two threads of one such tile is told with the tile's sync() as its fix, the call the
  // program has, rather than a __syncwarp() it never wrote.
  std::uint32_t sub_warp_tiles = 0;
};

}  // namespace scanlab::sim::detail::race_detector

namespace scanlab::sim::detail::memory_order {

// What is known of other blocks, by source block (its linear index): what each published with a
// release pattern, and what it stored a flag after, with or without one (`seen` covers
// `published`). Flags and blocks share these maps' parts (mark_map.hpp), so a chain of hand-offs
// costs memory linear in its length.
struct Knowledge {
  MarkMap published;
  MarkMap seen;
};

// A thread's part, kept only for threads that fenced or read a flag. It names the locations
// it read since the last barrier instead of copying what they carry: a counter that every
// thread adds to carries a mark of every block, which would make each atomic cost a copy of
// the whole grid's knowledge.
struct ThreadOrdering {
  std::vector<std::uintptr_t> read;      // flags read since the last barrier
  std::vector<std::uintptr_t> acquired;  // ... followed by an acquire pattern (an acquire load, a fence)
  std::vector<std::uintptr_t> taken;     // ... by an atomic read-modify-write (a ticket, a counter)
  bool acquired_block_seen = false;      // a fence after the last barrier: what the block saw is acquired
  std::uint32_t fence_interval = 0;
  std::uint32_t fence_clock = 0;  // 0: no fence of device scope yet
};

// A block's part.
struct BlockOrdering {
  std::uint32_t clock = 1;  // stamped on the block's global accesses; fences and flag stores advance it
  Knowledge seen;           // what its threads saw before the last barrier
  Knowledge taken;          // ... of it, what they saw through an atomic read-modify-write
  Knowledge acquired;       // what its threads acquired before the last barrier
  std::unordered_map<unsigned, ThreadOrdering> threads;
  bool threads_changed = false;  // a thread saw or acquired something since the last barrier
};

}  // namespace scanlab::sim::detail::memory_order

namespace scanlab::sim::detail::memory_check {

// A block's part: its out-of-bounds accesses so far.
struct BlockChecks {
  std::uint32_t out_of_bounds = 0;
};

}  // namespace scanlab::sim::detail::memory_check

namespace scanlab::sim::detail::counters {

// A thread's part: which instructions it ran how often in the current interval, its path.
struct LaneTally {
  std::vector<std::pair<std::uintptr_t, std::uint32_t>> executions;  // pc -> times, this interval
  std::uint64_t path = 0;                                            // hash of the basic blocks run
  bool ran = false;
};

// One warp-wide access being gathered.
struct Request {
  bool shared = false;
  bool store = false;
  std::vector<std::pair<std::uintptr_t, std::uint32_t>> bytes;  // (address, size) per lane access
};

struct RequestKey {
  unsigned warp;
  std::uintptr_t pc;
  std::uint32_t occurrence;
  bool operator==(const RequestKey& o) const { return warp == o.warp && pc == o.pc && occurrence == o.occurrence; }
};
struct RequestKeyHash {
  std::size_t operator()(const RequestKey& k) const {
    return (k.pc * 0x9E3779B97F4A7C15ull) ^ (std::size_t{k.warp} << 32) ^ k.occurrence;
  }
};

// A block's part: the requests of the current interval, and what the finished intervals of
// the blocks that ran in this slot counted (added to the process's counters by the scheduler
// after each phase).
struct BlockTally {
  std::unordered_map<RequestKey, Request, RequestKeyHash> requests;
  Counters counted;
};

}  // namespace scanlab::sim::detail::counters
