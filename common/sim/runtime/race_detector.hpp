// The race detector: compute-sanitizer racecheck's rule, applied to every access of student code.
//
// Within a block, two accesses to the same byte by different threads, at least one a write, not
// both atomic and not a plain read beside an atomic (the compare-and-swap loop), are a hazard unless a barrier lies between them (they are in different
// barrier intervals) or a __syncwarp orders them (same warp). This is exact at any block size:
// each 4-byte word remembers its last write and up to two readers of the current interval,
// with the bytes each touched (a shadow cell of one cache line for shared memory).
//
// Between blocks (global memory only), accesses are ordered only through a flag hand-off: a
// block that stores a flag (atomic or volatile) after a __threadfence() publishes what it wrote
// before the fence, and a block that reads that flag (atomic or volatile) acquires it. Blocks
// carry vector clocks; an access of another block that was not published to this one is a race.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "device_limits.hpp"

namespace scanlab::sim::detail {
struct Block;
struct Thread;
}

namespace scanlab::sim::detail::race_detector {

// kBlind: a write that does not read what was there (atomicExch, an atomic store).
enum AccessFlags : std::uint8_t { kRead = 0, kWrite = 1, kAtomic = 2, kVolatile = 4, kBlind = 8 };

// A thread's part: happens-before among the lanes of its warp, lane clocks joined at every
// __syncwarp.
using LaneClocks = std::array<std::uint32_t, kWarpSize>;

// A block's part: ordering between blocks (global memory), a vector clock advanced by
// __threadfence.
struct BlockClocks {
  std::uint32_t run = 0;        // this block's run: unique among all blocks started in the process
  std::uint32_t clock = 1;      // stamped on this block's global accesses
  std::uint32_t published = 0;  // accesses stamped <= published are made visible by a fence
  // knows[b] = c + 1: this block acquired a flag from block b that published b's accesses
  // stamped <= c; 0: no hand-off from b at all.
  std::vector<std::uint32_t> knows;
};

// The launch whose accesses are current; records of earlier launches are ordered before it.
// `parallel`: blocks run on several OS threads, so a global-memory granule is checked under a lock.
void begin_launch(std::uint32_t launch_id, bool race_check, bool parallel);
void begin_block(Block& b);

// Every access of kernel code to device memory (an address in memory::in_window), before it
// happens: bounds and never-written bytes (memory_check), then races.
void check_access(Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags, std::uintptr_t pc);
// Flag hand-off between blocks through a global location.
void release(Thread* t, std::uintptr_t address);
void acquire(Thread* t, std::uintptr_t address);
// __threadfence: everything the block wrote so far becomes visible to a block that acquires a
// later flag.
void publish(Block& b);
// __syncwarp: what each lane in `mask` did before is ordered before what any of them does after.
void join_lanes(Thread* warp_lanes, unsigned mask);

}  // namespace scanlab::sim::detail::race_detector
