// The words of the race detector's reports: which two accesses met, of which threads, what
// kind of hazard it is and what would order them. What a hand-off between blocks lacks is the
// memory model's to say (memory_order::advice).
#pragma once

#include <cstdint>
#include <optional>

#include "checks/memory_order.hpp"
#include "findings/report.hpp"

namespace scanlab::sim::detail {
struct Thread;
}

namespace scanlab::sim::detail::race_detector {

// One side of a race as its shadow cell remembered it: its code address, how it accessed
// (AccessFlags), and which thread of which block made it.
struct RaceSide {
  std::uintptr_t pc;
  std::uint8_t flags;
  std::uint32_t block;
  unsigned thread;
};

// A data race between `earlier` and thread t's access now (at `pc`, with `flags`) to `address`;
// `stale`: instead, a volatile read that may see the value from before a strong write. For two
// blocks' accesses to global memory, `between_blocks` says how the earlier stands to t's.
Finding race_finding(const RaceSide& earlier, const Thread* t, std::uintptr_t pc, std::uint8_t flags,
                     std::uintptr_t address, bool shared, bool stale,
                     std::optional<memory_order::Relation> between_blocks);

// Another race between the two lines of a race reported before. When this one's threads are of
// two warps and that finding's fix was __syncwarp() (it met two lanes of one warp), the fix does
// not order these: a finding of this block not printed yet gets __syncthreads() instead, and for
// one already printed the answer is true: report this race again, with the fix that orders both.
bool widen_fix(const RaceSide& earlier, const Thread* t, std::uintptr_t pc);

// A plain read beside atomic writes: named by its two lines, since which threads met there
// first is timing.
Finding read_beside_atomics_finding(std::uintptr_t read_pc, std::uint8_t read_flags, std::uintptr_t atomic_pc,
                                    std::uint8_t atomic_flags, bool shared);

}  // namespace scanlab::sim::detail::race_detector
