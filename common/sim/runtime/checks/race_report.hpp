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

// How two accesses that no barrier, __syncwarp or hand-off orders stand (race_rule.hpp, judge):
//   none         nothing to report (both strong and nothing announced the write, or the
//                compare-and-swap loop's checked guess);
//   race         a data race (an error);
//   stale        a volatile or atomic read of another block's strong write that a flag announced,
//                published by the writer but not acquired by the reader: it may see the value from
//                before that write (a warning);
//   unpublished  the same where the writer set the flag with an atomic (atomicAdd, atomicExch, ...)
//                and no release pattern: the flag hands on a stale value (an error, volatile data
//                included); a flag stored as volatile stays `stale`, since a word that carries its
//                own state beside its value is read that way and checked by its reader;
//   ticket       a read of what another block published (a fence before its atomic), after taking
//                the flag with an atomic read-modify-write and no acquire: the PTX model does not
//                order it, NVIDIA's documented "last block" pattern relies on it (a warning);
//   held         a plain read beside atomic writes, judged when the launch ends.
enum class Verdict : std::uint8_t { none, race, stale, unpublished, ticket, held };

// One side of a race as its shadow cell remembered it: its code address, how it accessed
// (AccessFlags), and which thread of which block made it.
struct RaceSide {
  std::uintptr_t pc;
  std::uint8_t flags;
  std::uint32_t block;
  unsigned thread;
};

// The finding of `verdict` (race, stale, unpublished or ticket) between `earlier` and thread t's
// access now (at `pc`, with `flags`) to `address`. For two blocks' accesses to global memory,
// `earlier_stamp` is the earlier access as the memory model knows it: how it stands to t's
// (memory_order::relation) gives the fix and the side that lacks its ordering, and the flag that
// announced it (memory_order::flag_steps) two more parties, "flag store" and "flag read".
Finding race_finding(const RaceSide& earlier, const Thread* t, std::uintptr_t pc, std::uint8_t flags,
                     std::uintptr_t address, bool shared, Verdict verdict,
                     std::optional<memory_order::Stamp> earlier_stamp);

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
