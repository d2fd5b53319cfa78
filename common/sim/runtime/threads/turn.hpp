// A CUDA thread's turn on the processor: what the scheduler does before a thread runs, once it
// has suspended, and where it goes then. Inline: every switch between fibers does it.
#pragma once

#include <cstring>
#include <utility>

#include "memory/host_checked_ranges.hpp"
#include "threads/block.hpp"
#include "threads/plain_poll.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::scheduler {

// A suspended fiber is a pointer to the registers saved on its stack. Fetching them (and the
// Thread) before their turn hides most of a context switch's cache misses: a round visits
// every thread of a block, and each thread's stack was last touched a whole round ago.
inline void prefetch(const Thread* t) {
  static_assert(sizeof(boost::context::fiber) == sizeof(void*), "boost::context::fiber holds one context pointer");
  const char* context;
  std::memcpy(&context, &t->fiber, sizeof context);
  __builtin_prefetch(t);
  if (context) {
    __builtin_prefetch(context);
    __builtin_prefetch(context + 64);
  }
}

// The scheduler's part of a thread's turn: before it runs ...
inline void begin_turn(Thread* t, bool serial_turn) {
  current_thread = t;
  memory::check_every_address();  // this OS thread may have run host code before
  current_coordinates = &t->coords;
  t->stored_since_yield = false;
  plain_poll::turn_begins(t);
  t->in_serial_turn = serial_turn;
  t->used_serial_turn = false;
}

// ... and once it has suspended.
inline void end_turn(Thread* t) {
  current_thread = nullptr;
  current_coordinates = nullptr;
  t->in_serial_turn = false;
  t->used_serial_turn = false;
  if (t->exited || t->waiting == Waiting::barrier || t->waiting == Waiting::warp || t->stored_since_yield)
    t->block->progress = true;
}

// One turn of one thread, from the worker's own stack and back (two switches). `serial_turn`:
// resumed by the serial phase, where its cross-block operation may run.
inline void run_turn(Thread* t, bool serial_turn = false) {
  begin_turn(t, serial_turn);
  t->fiber = std::move(t->fiber).resume();
  end_turn(t);
}

// Where a thread goes when it suspends: the next round, the serial phase, or nowhere until
// whatever it waits for wakes it.
inline void place(Block& b, Thread* t) {
  if (t->exited) return;
  if (t->waiting == Waiting::no) b.runnable.push_back(t);
  else if (t->waiting == Waiting::serial_phase) b.deferred.push_back(t);
}

}  // namespace scanlab::sim::detail::scheduler
