// Running a launch: CUDA threads are fibers; resident blocks run side by side on worker OS
// threads (scheduler.cpp). What the other modules may ask of it: give the processor back, wait
// and wake, wait for the serial phase, stop the kernel.
#pragma once

#include <cstdint>

#include "scanlab/sim/cuda.hpp"
#include "threads/block.hpp"
#include "threads/launch.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::scheduler {

// Gives the processor back to the scheduler; returns when this thread is resumed.
void suspend(Thread* t);
// A spin-wait point (volatile access, atomic, fence, __nanosleep): lets others run.
void yield(Thread* t, std::uintptr_t pc);
// Stops the kernel: the scheduler tears the launch down after this thread suspends.
[[noreturn]] void abort_kernel(Thread* t, cudaError_t error);
// Stops t's block only: its threads never run again, the other blocks go on, and the launch
// ends with `error`. For a block that cannot end on its own (a loop bounded by a value read out
// of bounds), so that what other blocks would find is still found.
[[noreturn]] void stop_block(Thread* t, cudaError_t error);

// Before an operation that other blocks see at once: an atomic or volatile access to memory
// other than the block's own (memory::block_private), and with it a flag hand-off. Blocks run side by side in a launch's parallel phase, where
// such an operation would see the others at whatever point timing put them; it waits for the
// serial phase instead, where the blocks take turns in a fixed order. So a program and seed
// behave the same whatever the number of cores.
//
// A value wider than one store (a status word of two parts, a value beside its flag) is
// published by strong stores to neighbouring words, one serial phase each. Between a thread's
// first and second store of such a run, where another block has read one of the two words
// since it was last stored (a reader that saw the new first part, or polls the second), the
// scheduler lets
// kTornReadPhases serial phases go by, so that the reader meets the new first part beside the
// old second one: a reader that does not check that the parts belong together combines two
// values, as it may on a GPU. `store`: the access writes (a volatile or atomic store) to
// `address`.
void cross_block(Thread* t, std::uintptr_t pc, std::uintptr_t address, bool store);
// Serial phases a second store of a run waits: two, so that a reader whose polls alternate
// between the two words reads the first after its new value and the second before, whatever
// the order of the readers' and the writer's blocks in the serial phase.
constexpr unsigned kTornReadPhases = 2;
// Stores this close to the run's last one continue it (the parts of one value, a word and the
// flag beside it).
constexpr std::uintptr_t kStoreRunBytes = 64;
// A thread that ran its cross-block operation goes back to running beside the other blocks:
// called at its next access, it suspends until the next parallel phase.
inline void leave_serial_turn(Thread* t) {
  if (t->used_serial_turn) yield(t, t->last_yield_pc);
}

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
// An error the launch ends with, found by a thread of block b that goes on.
inline void fail_later(Block& b, cudaError_t error) {
  if (b.error == cudaSuccess) b.error = error;
}
// Stops the launch for a finding in block b that no thread can get past; it ends with `error`.
inline void stop(Block& b, cudaError_t error) {
  b.stopped = true;
  b.error = error;
}

}  // namespace scanlab::sim::detail::scheduler
