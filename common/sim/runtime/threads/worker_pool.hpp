// The OS threads that run resident blocks side by side (SCANLAB_SIM_THREADS).
//
// A fiber must always resume on the OS thread it last ran on: compiled code may keep the
// address of a thread-local variable across a call that switches fibers. So each resident
// slot belongs to one worker for as long as its fibers live, and the scheduler gives every
// worker the same slots in every phase of a launch.
#pragma once

namespace scanlab::sim::detail::worker_pool {

// The most OS threads a launch may use (Schedule::threads, or every core when it is 0).
unsigned configured_threads();

// Runs job(context, w) for every w in [0, workers) on `workers` OS threads, w = 0 on the calling
// thread, and returns when all have returned. Worker w is the same OS thread in every call.
void run_on_each(unsigned workers, void (*job)(void* context, unsigned worker), void* context);

// Waits until the turn counter (0 after reset_turns()) reaches `turn`; the caller then acts and
// hands the turn on with next_turn(). A serial phase walks its slots in order this way, each on
// the worker that owns it.
void wait_for_turn(unsigned turn);
void next_turn();
void reset_turns();

}  // namespace scanlab::sim::detail::worker_pool
