// The race detector: compute-sanitizer racecheck's rule, applied to every access of student code.
//
// Within a block, two accesses to the same byte by different threads, at least one a write, not
// both atomic, are a hazard unless a barrier lies between them (they are in different barrier
// intervals) or a __syncwarp orders them (same warp). A plain read beside an atomic write is
// one too, unless atomicCAS checks it (a compare-and-swap loop's guess): held to the launch's end. This is exact at any block size:
// each 4-byte word remembers its last write and up to two readers of the current interval,
// with the bytes each touched (a shadow cell of one cache line for shared memory; 16 bytes, and
// 8 more for a second reader where there is one, for global memory).
//
// Between blocks (global memory only), accesses are ordered only through a flag hand-off with a
// release pattern on the writer's side and an acquire pattern on the reader's: memory_order.hpp
// decides which earlier accesses of another block are ordered before an access. A plain access
// left unordered is a race; two strong (atomic or volatile) accesses never race, but a volatile
// read of data that a flag announced without both patterns may see a stale value (a warning).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "base/access.hpp"
#include "memory/race_shadow.hpp"
#include "threads/block.hpp"
#include "threads/launch.hpp"

namespace scanlab::sim::detail::race_detector {

// The launch whose accesses are current; records of earlier launches are ordered before it.
// Where its blocks run on several OS threads, a global-memory granule is checked under a lock.
void begin_launch(const Launch& launch);
void begin_block(Block& b);
// After the last block: the races of plain reads beside atomic writes whose code never turned
// out to be a compare-and-swap loop's guess are reported.
void end_launch(const Launch& launch);

// Every access of kernel code to device memory (an address in memory::in_window), before it
// happens: bounds and never-written bytes (memory_check), then races.
void check_access(Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags, std::uintptr_t pc);
// What the shadow records of an access: its AccessFlags.
inline std::uint8_t flags_of(const Access& a) {
  if (a.strength == Access::Strength::atomic)
    return kAtomic | kWrite | (a.blind ? kBlind : 0) | (a.compare_and_swap ? kCompareAndSwap : 0) |
           (a.scope == Scope::block ? kBlockScope : 0);
  return (a.kind != Access::Kind::read ? kWrite : 0) | (a.strength == Access::Strength::volatile_access ? kVolatile : 0);
}
// __syncwarp: what each lane in `mask` did before is ordered before what any of them does after.
void join_lanes(Thread* warp_lanes, unsigned mask);
// The sync() of a tile of several warps: what any thread of warps [first_warp, first_warp + count)
// did before is ordered before what any of them does after; other warps are not ordered by it.
void join_warps(Block& b, unsigned first_warp, unsigned count);
// A hand-off through a barrier object in shared memory (collectives/async_barrier.cpp), one warp
// at a time: an arrival of `warp` adds what that warp did so far, and what it had heard of, to
// `published`; a wait that sees the phase complete orders all of `published` before what `warp`
// does after.
using WarpRow = std::array<std::uint32_t, kMaxWarpsPerBlock>;
void publish_warp(Block& b, unsigned warp, WarpRow& published);
void acquire_for_warp(Block& b, unsigned warp, const WarpRow& published);
// A new generation of the block's clocks: every access made so far is below it (a point that
// later checks compare records with, such as a fence.proxy.async in collectives/bulk_copy.cpp).
std::uint32_t new_generation(Block& b);
// The last write to a word of shared memory, as its shadow cell remembers it (run 0: none kept,
// or race checks are off).
SharedRecord last_shared_write(std::uintptr_t address);

}  // namespace scanlab::sim::detail::race_detector
