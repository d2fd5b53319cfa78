// A loop that polls memory through plain loads: a flag or status word read through a pointer
// that is neither volatile nor atomic, in a loop that waits for another thread to change it.
//
// Where the compiler hoists the load out of the loop, the loop touches no memory and the
// watchdog (fault_handler.hpp) finds it. Where it does not (a value of two words read each
// round, a loop whose other loads keep the load in it), every round calls the simulator, but
// with plain loads only, which never give the processor back: the other threads, and the thread
// that would store what the loop waits for, never run, and the launch would hang without a word.
//
// So each thread counts its plain loads of device memory in a row (no store of its own to device
// memory, no turn given up between them). After kReadsBeforeWatch such loads it watches the
// address of the next one; when that address is loaded kRepeatsOfAPoll times more in the same
// row, the thread is polling it, and from then on each load of it gives the others a turn first
// (a spin-wait point, as a volatile load is). Counting and turns depend on the thread's own
// loads alone, so a seed gives the same run whatever the number of cores. When a polled word
// changes under the poll, another thread stored it while this one polled with plain loads: a
// data race, reported at the poll's line with the fix.
#pragma once

#include <cstdint>

#include "base/access.hpp"
#include "findings/source_location.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::plain_poll {

// Plain loads in a row after which the next one's address is watched: far more than a poll's
// round makes, far fewer than a thread would make in the half second the watchdog waits.
constexpr std::uint32_t kReadsBeforeWatch = 4096;
// Loads of the watched address in that row that make the loop a poll.
constexpr std::uint32_t kRepeatsOfAPoll = 256;

// The slow path: a load of the watched address, or the load that starts a new watch.
void watched_load(Thread* t, const Access& a);

// Whether the load at code address pc, or another load of its source line (a poll of a value of
// two words loads each word with an instruction of its own), was found polling, in this launch
// or an earlier one. A race of such a load with another block's store is the poll's own mistake,
// which the poll's finding (at that line, with volatile and atomic loads as the fix) already
// tells: the race detector leaves such a race to it rather than report one mistake twice.
bool polls_at(std::uintptr_t pc);

// The watchdog (fault_handler.hpp) stopped a thread spinning in a loop that touches no memory at
// the source place where, a function whose plain load of what it polls the compiler hoisted out of
// the loop. The hoisted load still ran once, and may have raced with the store it waited for:
// that race is the spin's mistake, which the spin's finding (volatile or atomic as the fix)
// already tells, so polls_at counts every load of that function as a poll from then on.
void hoisted_spin_at(const SourceLocation& where);

// Every plain access of kernel thread t to device memory, before it is checked.
__attribute__((always_inline)) inline void note(Thread* t, const Access& a) {
  PollWatch& w = t->poll;
  if (a.kind != Access::Kind::read) {
    w.reads = 0;
    w.repeats = 0;
    w.polling = false;
    return;
  }
  if (a.address == w.address || ++w.reads == kReadsBeforeWatch) watched_load(t, a);
}

// The thread gave up its turn: the row of loads ends (a poll already found stays one).
inline void turn_begins(Thread* t) {
  t->poll.reads = 0;
  t->poll.repeats = 0;
}

}  // namespace scanlab::sim::detail::plain_poll
