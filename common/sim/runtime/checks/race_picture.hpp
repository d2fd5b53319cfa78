// The recorder of a race's picture. Off unless SCANLAB_SIM_RACE_PICTURE names a block, a shared
// variable and a byte (base/settings.hpp), as a grader does when it runs again a test that
// failed with a race: then every access of that block to a window of the variable around the
// byte is kept (each thread's access to a cell at a line once per barrier interval), over the
// last three barrier intervals, with the barrier that began each. The first race the block
// makes in the window takes what was kept as its picture, and recording stops. A run without
// the setting pays one predictable branch per access.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "findings/picture.hpp"

namespace scanlab::sim::detail {
struct Block;
struct Thread;
}

namespace scanlab::sim::detail::race_picture {

// A picture is asked for and not yet taken. Read by every access on every OS thread, written by
// the one that runs the followed block: relaxed, which costs a plain load.
extern std::atomic<bool> recording;

// A block starts: the recorder follows it if it is the block asked for (its last run, since a
// program launches a kernel many times).
void begin_block(const Block& b);
// A barrier of block b was crossed (b.barrier.interval is the new interval): the interval it
// begins is kept with its barrier's line even when the block touches nothing in it, so that a
// picture of a race two barriers later still draws that barrier where it was.
void barrier_crossed(const Block& b);
// An access of lab code, before the race detector judges it.
void note(const Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags, std::uintptr_t pc);
// The race thread t's access now at `address` makes with an earlier one of the same block
// (`earlier_thread`, at code `earlier_pc`): its picture, where this is the race asked for.
std::optional<RacePicture> take(const Thread* t, std::uintptr_t address, std::uintptr_t pc, std::uint8_t flags,
                                unsigned earlier_thread, std::uintptr_t earlier_pc, std::uint8_t earlier_flags);

// Where a shared-memory address of t's block is: the variable, the byte and the block (what a
// race's record carries, so that a grader can ask for its picture); none outside every variable.
std::optional<MemorySubject> subject_of(const Thread* t, std::uintptr_t address);

}  // namespace scanlab::sim::detail::race_picture
