// The scheduler's side of a CUDA thread: giving the processor back, spinning, waiting for the
// serial phase, stopping. Within a round each thread that suspends hands the processor straight
// to the next thread of the round (launch/rounds.cpp), one switch a thread.
#include "threads/scheduler.hpp"

#include <cstdlib>
#include <unordered_map>
#include <utility>

#include "threads/launch.hpp"
#include "threads/turn.hpp"

namespace scanlab::sim::detail {

void scheduler::suspend(Thread* t) {
  Block& b = *t->block;
  if (!b.chained) {  // run() resumed it: back to run()
    t->scheduler = std::move(t->scheduler).resume();
    return;
  }
  end_turn(t);
  place(b, t);
  boost::context::fiber* to = &b.home;
  if (!b.stopped && b.round_next < b.round.size()) {
    Thread* next = b.round[b.round_next++];
    if (b.round_next + 1 < b.round.size()) prefetch(b.round[b.round_next + 1]);
    begin_turn(next, false);
    to = &next->fiber;
  }
  boost::context::fiber resumer = std::move(*to).resume_with([t](boost::context::fiber&& self) {
    t->fiber = std::move(self);
    return boost::context::fiber{};
  });
  if (resumer) t->scheduler = std::move(resumer);  // resumed by run(), which it goes back to next time
}

void scheduler::yield(Thread* t, std::uintptr_t pc) {
  t->last_yield_pc = pc;
  suspend(t);
}

namespace {

// Whether a store to `address` continues t's run of strong stores, and the run's length then.
unsigned store_run_after(const Thread* t, std::uintptr_t address, bool store) {
  if (!store) return 0;
  const std::uintptr_t last = t->store_run_address;
  const bool continues = last != 0 && (address > last ? address - last : last - address) < scheduler::kStoreRunBytes;
  return continues ? t->store_run_length + 1 : 1;
}

// The words of the running launch that a block has read with a cross-block load since they were
// last stored with a cross-block store, and the block that read each last. Touched only in the
// serial phase, where one thread runs at a time, whatever the number of OS threads.
struct PolledWords {
  std::uint32_t launch = 0;
  std::unordered_map<std::uintptr_t, unsigned> reader;
};
PolledWords polled;

std::uintptr_t word_of(std::uintptr_t address) { return address & ~std::uintptr_t{7}; }

// Whether a block other than t's read `word` since it was last stored.
bool read_by_another_block(const Thread* t, std::uintptr_t word) {
  const auto it = polled.reader.find(word);
  return it != polled.reader.end() && it->second != t->block->linear;
}

// Notes t's cross-block access to `address`. For a store, whether another block read its word,
// or the word of the store before it in t's run (`previous`, 0: none), since it was last stored:
// a reader that saw the run's first part may read the second next.
bool note_cross_block(const Thread* t, std::uintptr_t address, bool store, std::uintptr_t previous) {
  const Block& b = *t->block;
  if (polled.launch != b.launch->id) {
    polled.reader.clear();
    polled.launch = b.launch->id;
  }
  const std::uintptr_t word = word_of(address);
  if (!store) {
    polled.reader[word] = b.linear;
    return false;
  }
  const bool read = read_by_another_block(t, word) || (previous != 0 && read_by_another_block(t, word_of(previous)));
  polled.reader.erase(word);
  return read;
}

}  // namespace

void scheduler::cross_block(Thread* t, std::uintptr_t pc, std::uintptr_t address, bool store) {
  t->last_yield_pc = pc;
  const unsigned run = store_run_after(t, address, store);
  if (!t->in_serial_turn || t->used_serial_turn) wait(t, Waiting::serial_phase);
  // Only the run's second store waits, and only where another block has read one of the run's
  // two words since it was last stored: one chance for a torn read per value is enough, a value
  // that nobody reads cannot be torn, and a long run of volatile stores (an array copied through
  // a volatile pointer) stays cheap.
  if (note_cross_block(t, address, store, run == 2 ? t->store_run_address : 0) && run == 2)
    for (unsigned phase = 0; phase < kTornReadPhases; ++phase) wait(t, Waiting::serial_phase);
  t->store_run_address = store ? address : 0;
  t->store_run_length = run;
  t->used_serial_turn = true;
}

void scheduler::abort_kernel(Thread* t, cudaError_t error) {
  Block& b = *t->block;
  b.stopped = true;
  if (b.error == cudaSuccess) b.error = error;
  suspend(t);  // never resumed: the scheduler unwinds this fiber
  std::abort();
}

void scheduler::stop_block(Thread* t, cudaError_t error) {
  t->block->stopped_alone = true;
  abort_kernel(t, error);
}

}  // namespace scanlab::sim::detail
