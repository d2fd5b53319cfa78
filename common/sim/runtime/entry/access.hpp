// The one path of every memory access of a CUDA thread, whatever entry point it came through
// (entry/instrumentation_hooks.cpp, entry/atomics.cpp, entry/std_atomic_hooks.cpp): first the
// thread's turn (a thread that ran its cross-block operation goes back beside the other blocks; a
// strong access outside the block's own memory waits for the serial phase, one inside it may be a
// spin-wait point), then the memory model (what a strong access publishes or acquires), then,
// in device memory, the counters and the race detector with its memory check, and outside it the
// replay watch. Always inline: each entry point's constant description folds away what does not
// apply, and a plain load or store reaches the race detector by jumps alone.
#pragma once

#include "base/access.hpp"
#include "checks/counters.hpp"
#include "checks/memory_order.hpp"
#include "checks/race_detector.hpp"
#include "launch/launch_replay.hpp"
#include "memory/memory.hpp"
#include "threads/plain_poll.hpp"
#include "threads/scheduler.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::access_path {

// Whether a's path is its checks alone: a plain access of a thread that did not just run its
// cross-block operation, with counting off.
__attribute__((always_inline)) inline bool checks_only(const Thread* t, const Access& a) {
  return a.strength == Access::Strength::plain && !t->used_serial_turn && !counters::enabled;
}

// The thread's turn before the access.
__attribute__((always_inline)) inline void take_turn(Thread* t, const Access& a) {
  // An atomic ends a serial turn by its own wait: for the serial phase, or at a spin-wait point.
  if (a.strength != Access::Strength::atomic) scheduler::leave_serial_turn(t);
  if (a.strength == Access::Strength::plain) return;
  // Before the access, not after: the load or store follows directly, so a strong load sees the
  // value that was there when it acquired (a flag seen set was also acquired). Outside the
  // block's own memory other blocks see it at once: it runs in the serial phase.
  if (!memory::block_private(a.address)) scheduler::cross_block(t, a.pc, a.address, a.kind == Access::Kind::write);
  else if (a.spin_point) scheduler::yield(t, a.pc);
}

// The checks of the access, after its turn.
__attribute__((always_inline)) inline void check(Thread* t, const Access& a) {
  // A strong access to a __device__ variable (host memory here, not checked for races) hands
  // off like one in global memory.
  if (a.strength != Access::Strength::plain) memory_order::strong_access(t, a);
  if (!memory::in_window(a.address)) return launch_replay::note_access_outside_device_memory(a.address);
  // A loop of plain loads that never gives the processor back: a poll, given turns here.
  if (a.strength == Access::Strength::plain) plain_poll::note(t, a);
  // Counters gather loads and stores into warp-wide requests; atomics are none of them.
  if (a.strength != Access::Strength::atomic && counters::enabled && memory::in_buffer_ranges(a.address))
    counters::record_access(*t, a.address, a.bytes, memory::in_shared(a.address), a.kind != Access::Kind::read, a.pc);
  race_detector::check_access(t, a.address, a.bytes, race_detector::flags_of(a), a.pc);
}

// Every access of a CUDA thread t, before it happens.
__attribute__((always_inline)) inline void run(Thread* t, const Access& a) {
  take_turn(t, a);
  check(t, a);
}

}  // namespace scanlab::sim::detail::access_path
