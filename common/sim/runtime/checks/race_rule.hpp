// The race detector's rule: whether an earlier access, as a shadow cell remembers it, and a
// thread's access now conflict. Within a block, racecheck's rule: two accesses of different
// threads to the same bytes, at least one a write, not both atomic, unless a barrier, a
// __syncwarp or the sync() of a tile orders them. Between blocks, the PTX memory model's:
// memory_order.hpp says whether a hand-off orders them. Inline: every access that meets a
// possible conflict asks.
#pragma once

#include <cstdint>

#include "checks/memory_order.hpp"
#include "checks/race_report.hpp"
#include "memory/race_shadow.hpp"
#include "threads/block.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::race_detector {

inline bool is_strong(std::uint8_t flags, bool across_blocks) {
  // Atomics never race with atomics of their scope. Volatile accesses are strong (relaxed,
  // system scope) in the PTX memory model, which matters between blocks; inside a block
  // racecheck treats them as plain accesses, which is what catches warp-synchronous code without
  // __syncwarp.
  if (across_blocks) return ((flags & kAtomic) && !(flags & kBlockScope)) || (flags & kVolatile);
  return flags & kAtomic;
}

// A plain read beside an atomic write is a data race in the PTX memory model (`if (best < v)
// atomicMax(&best, v)`), but the compare-and-swap loops of the CUDA Programming Guide (atomicMax
// on floats, ...) read a guess plainly and let atomicCAS check it. Which it is shows only when
// the reading thread's atomicCAS on the word comes, so such a pair is held until the launch
// ends, and dropped if its read's code turned out to be a guess (guess_code).
inline bool read_beside_atomic(std::uint8_t a, std::uint8_t b) {
  return ((a & kAtomic) && !(b & kWrite)) || ((b & kAtomic) && !(a & kWrite));
}

// Whether an earlier access p of this launch, or of an earlier one, is ordered before thread t's.
inline bool same_warp_ordered(std::uint16_t p_thread, std::uint32_t p_warp_epoch, const Thread* t) {
  // p's lane joined t (directly or through other lanes) in a __syncwarp after p's access ...
  if (p_thread / kWarpSize == t->warp && t->warp_clock[p_thread % kWarpSize] > p_warp_epoch) return true;
  // ... or p's warp joined t's in the sync() of a tile of several warps ...
  const WarpClocks* tiles = t->block->race.tile_clocks.get();
  if (tiles && (*tiles)[t->warp][p_thread / kWarpSize] > p_warp_epoch) return true;
  // ... or p's warp arrived on a barrier object before a phase that t's warp saw complete.
  const WarpClocks* handoffs = t->block->race.handoff_clocks.get();
  return handoffs && (*handoffs)[t->warp][p_thread / kWarpSize] > p_warp_epoch;
}
inline bool ordered(const SharedRecord& p, const Thread* t) {
  const Block* b = t->block;
  if (p.run != b->race.run) return true;  // an earlier block's use of this arena
  if (p.by.thread() == t->linear || p.interval != b->barrier.interval) return true;
  return same_warp_ordered(p.by.thread(), p.warp_epoch, t);
}
inline memory_order::Stamp stamp_of(const GlobalRecord& p) { return {p.block, p.by.thread(), p.interval, p.clock}; }
inline bool ordered(const GlobalRecord& p, const Thread* t) {
  if (p.launch != current_launch) return true;
  const Block* b = t->block;
  if (p.block != b->linear) return memory_order::ordered(t, stamp_of(p));
  if (p.by.thread() == t->linear || p.interval != b->barrier.interval) return true;
  return same_warp_ordered(p.by.thread(), p.warp_epoch, t);
}

inline std::uint32_t block_of(const SharedRecord&, const Thread* t) { return t->block->linear; }
inline std::uint32_t block_of(const GlobalRecord& p, const Thread*) { return p.block; }
inline bool recorded(const SharedRecord& p) { return p.run != 0; }
inline bool recorded(const GlobalRecord& p) { return p.launch != 0; }

// How two strong accesses of two blocks stand (Verdict in race_report.hpp): a read that a flag
// announced, of a value another block stored with a strong (atomic or volatile) write, where the
// flag's hand-off lacks a pattern. Strong accesses never race, but volatile and relaxed atomics
// order nothing: where the writer set an atomic flag (atomicAdd, atomicExch, ...) with no release
// pattern, the flag hands on a stale value (an error); without the reader's acquire, or where the
// "flag" was a volatile store (a word that carries its state beside its value, which the reader
// checks, as a decoupled look-back's status words do), the read may see one (a warning).
// Set while a strong read of an aligned 8-byte word of global memory is checked, where one store
// of one thread wrote both halves of the word (the same record in both granules): a status word
// that carries its state and its value together. Such a read sees the store whole or not at all
// (aligned strong accesses of up to 64 bits are single-copy atomic in the PTX memory model), so a
// reader that checks the state has nothing stale to see, whatever flag it read before: neither a
// flag stored as volatile nor a ticket the reader took (a block that takes tile after tile and
// then looks back over earlier tiles' words) is that word's hand-off. A flag the reader polled,
// set by an atomic with no release pattern, stays an error: the reader went on because the flag
// said the data was there. Defined in race_detector.cpp, so that the runtime holds one copy and
// no weak symbol that a program's own definition could take the place of.
extern thread_local bool reads_one_stored_word;

template <bool Shared>
Verdict strong_verdict(const AccessRecord<Shared>& p, const Thread* t, const AccessRecord<Shared>& c) {
  if constexpr (Shared) {
    return Verdict::none;
  } else {
    if (!(p.by.flags() & kWrite) || (c.by.flags() & kWrite)) return Verdict::none;
    switch (memory_order::relation(t, stamp_of(p))) {
      case memory_order::Relation::announced_by_atomic: return Verdict::unpublished;
      case memory_order::Relation::announced_by_ticket:
        return reads_one_stored_word ? Verdict::none : Verdict::unpublished;
      case memory_order::Relation::taken_not_acquired: return reads_one_stored_word ? Verdict::none : Verdict::ticket;
      case memory_order::Relation::not_published:  // a flag stored as volatile: a word that may carry its own state
      case memory_order::Relation::not_acquired:
      case memory_order::Relation::other_thread: return reads_one_stored_word ? Verdict::none : Verdict::stale;
      default: return Verdict::none;
    }
  }
}

// A plain access of another block that a published flag, taken through an atomic
// read-modify-write with no acquire after it, announced: the "last block" hand-off (a warning).
template <bool Shared>
bool taken_without_acquire(const AccessRecord<Shared>& p, const Thread* t) {
  if constexpr (Shared) {
    return false;
  } else {
    return memory_order::relation(t, stamp_of(p)) == memory_order::Relation::taken_not_acquired;
  }
}

template <bool Shared>
Verdict judge(const AccessRecord<Shared>& p, const Thread* t, const AccessRecord<Shared>& c) {
  if (!recorded(p) || (p.by.mask() & c.by.mask()) == 0) return Verdict::none;
  const bool across = block_of(p, t) != t->block->linear;
  // Two strong accesses never race (a counter's atomics are judged here without asking how
  // the blocks are ordered).
  if (is_strong(p.by.flags(), across) && is_strong(c.by.flags(), across))
    return across ? strong_verdict<Shared>(p, t, c) : Verdict::none;
  if (ordered(p, t)) return Verdict::none;
  if (read_beside_atomic(p.by.flags(), c.by.flags())) return Verdict::held;
  if (across && taken_without_acquire<Shared>(p, t)) return Verdict::ticket;
  return Verdict::race;
}

}  // namespace scanlab::sim::detail::race_detector
