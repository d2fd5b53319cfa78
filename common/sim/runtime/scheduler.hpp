// Running a launch: CUDA threads are fibers that take turns on one OS thread (scheduler.cpp).
// What the other modules may ask of it: give the processor back, wait and wake, stop the kernel.
#pragma once

#include <cstdint>

#include "block.hpp"
#include "launch.hpp"
#include "scanlab/sim/cuda.hpp"
#include "thread.hpp"

namespace scanlab::sim::detail::scheduler {

// Gives the processor back to the scheduler; returns when this thread is resumed.
void suspend(Thread* t);
// A spin-wait point (volatile access, atomic, fence, __nanosleep): lets others run.
void yield(Thread* t, std::uintptr_t pc);
// Stops the kernel: the scheduler tears the launch down after this thread suspends.
[[noreturn]] void abort_kernel(Thread* t, cudaError_t error);

// Suspends a thread until another one ends its wait with wake().
inline void wait(Thread* t, Waiting reason) {
  t->waiting = reason;
  suspend(t);
}
// Ends the wait of a thread of block b: it runs in the block's next round.
inline void wake(Block& b, Thread& t) {
  t.waiting = Waiting::no;
  b.runnable.push_back(&t);
}
// An error the launch ends with, found by a thread that goes on.
inline void fail_later(Launch& launch, cudaError_t error) {
  if (launch.error == cudaSuccess) launch.error = error;
}
// Stops the launch for a finding no thread can get past; the launch ends with `error`.
inline void stop(Launch& launch, cudaError_t error) {
  launch.aborted = true;
  launch.error = error;
}

}  // namespace scanlab::sim::detail::scheduler
