// Memory ordering between blocks, by the PTX memory model. This module decides what an
// operation is (a fence and its scope, an atomic with its order and scope, a volatile access)
// and keeps what each block and thread has published, seen and acquired; the entry files
// (entry/) only say what happened, through one path (entry/access.hpp), and the
// race detector, which keeps the shadow cells, asks how an earlier access of another block
// stands to the access being checked.
//
// The rules (common/sim/README.md, "Memory model"):
//   - A hand-off between blocks synchronizes only when the writer has a release pattern (a
//     fence of device or system scope between the data store and the flag store, by the thread
//     that stores the flag, or a release store or read-modify-write) and the reader an acquire
//     pattern (a fence of device or system scope between the flag load and the data load, or an
//     acquire load or read-modify-write).
//   - A fence is cumulative: it covers the thread's own earlier accesses and those of its block
//     before a barrier the thread crossed; an acquire covers the thread's later accesses and,
//     after a barrier, those of its whole block. A store by one thread and a fence and flag by
//     another with no barrier between them is not covered.
//   - __threadfence_block() and block-scope atomics order nothing for another block; volatile
//     accesses are strong and relaxed: they order nothing around them.
//   - A flag the thread read announces what it carried when the thread read it, not what it
//     carries later: a counter the reader changed before anything was published announces nothing.
//   - A reader that takes a published flag through an atomic read-modify-write (the ticket of
//     the "last block" reduction) with no acquire pattern after it is told apart from one that
//     polls the flag with loads: the strict model orders neither, but NVIDIA's documented
//     pattern relies on the first (race_report.cpp makes it a warning, the second an error).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/access.hpp"
#include "threads/block.hpp"
#include "threads/launch.hpp"

namespace scanlab::sim::detail::memory_order {

// From the C++ memory order of a __tsan_atomic* call or a libcu++ operation (relaxed = 0 ...
// seq_cst = 5; consume counts as acquire).
Order from_cpp(int order);

// An access of another block, as the race detector recorded it.
struct Stamp {
  std::uint32_t block;
  std::uint16_t thread;
  std::uint32_t interval;
  std::uint32_t clock;
};

// How an earlier access of another block stands to a thread's access now.
enum class Relation : std::uint8_t {
  ordered,        // a release pattern published it and an acquire pattern made it visible
  taken_not_acquired,  // published, and the thread took the flag with an atomic read-modify-write (a
                       // ticket, a counter), but with no acquire pattern after it
  not_acquired,   // published, and the thread read the flag, but with no acquire pattern after it
  announced_by_atomic,  // the thread read a flag that an atomic (atomicAdd, atomicExch, ...) set after
                        // it, but the writer had no release pattern
  announced_by_ticket,  // the same, where the thread took that flag with an atomic read-modify-write (a
                        // ticket) and read no other flag that announced it
  not_published,  // the thread read a flag set after it, but the writer had no release pattern
  other_thread,   // the thread read a flag that another thread of its block set after it, with no barrier between
  unordered,      // no flag links the two
};

void begin_launch(const Launch& launch);
void begin_block(Block& b);
// A barrier of block b is crossed: what any thread saw or acquired is its whole block's.
void end_interval(Block& b);

// A fence (__threadfence*, atomic_thread_fence) by kernel thread t.
void fence(Thread* t, Order order, Scope scope);
// An atomic or volatile access by kernel thread t, before it is checked; one to its block's own
// memory orders nothing here (barriers and __syncwarp order that).
void strong_access(Thread* t, const Access& a);

// The scope of the C++ atomic operation (or fence) this OS thread makes next, as libcu++'s
// atomics set it just before (their thread_scope; the __tsan_atomic* hooks carry none), then
// back to system scope. Read before anything can switch fibers.
Scope current_atomic_scope();

Relation relation(const Thread* t, const Stamp& earlier);

// Which side of a hand-off lacks its ordering, for a report of `r` (a record's "handoff"):
// "release" (the writer's), "acquire" (the reader's) or "both"; null for `ordered`.
const char* missing_side(Relation r);

// One access to a flag, as the memory model keeps it for a report: its code address and thread.
struct FlagAccess {
  std::uintptr_t pc = 0;
  std::uint32_t block = 0;
  std::uint32_t thread = 0;  // linear, in its block
};
// The flag that announced `earlier` to thread t (or to its block, through a barrier): the store
// of it that the reader saw (its last store before the read) and the read; none where no flag
// the thread or its block read carried the earlier access.
struct FlagSteps {
  FlagAccess store;
  FlagAccess read;
};
std::optional<FlagSteps> flag_steps(const Thread* t, const Stamp& earlier);
// What the access of block `earlier` would have needed to be ordered before the access of block
// `later` that stands to it as `r`, for a report: which side of the hand-off lacks what, and the
// one-line fix.
std::string advice(Relation r, const std::string& earlier, const std::string& later);
// Whether `earlier` is ordered before t's access now: relation() == ordered, quickly when t's
// block knows nothing of the other block.
bool ordered(const Thread* t, const Stamp& earlier);

}  // namespace scanlab::sim::detail::memory_order
