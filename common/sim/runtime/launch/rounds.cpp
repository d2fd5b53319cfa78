#include "launch/rounds.hpp"

#include <cstddef>
#include <numeric>
#include <utility>

#include "collectives/barrier.hpp"
#include "threads/turn.hpp"

namespace scanlab::sim::detail::rounds {
namespace {

// The runnable threads of a block, into the order of its next round: warp by warp, the warps in
// a random order and the lanes of each upwards or downwards at random. Any order is one a GPU may
// take (races are found whatever it is); this one meets threads, their stacks and their shadow
// cells in address order, which the hardware prefetcher follows, where a full shuffle would
// miss the cache at almost every switch.
void order_round(Block& b) {
  // After a barrier every thread of a full block is runnable: no need to mark which.
  const bool all = b.runnable.size() == b.thread_count;
  if (!all) {
    b.queued.assign(b.thread_count, 0);
    for (const Thread* t : b.runnable) b.queued[t->linear] = 1;
  }
  b.runnable.clear();
  const unsigned warps = (b.thread_count + kWarpSize - 1) / kWarpSize;
  b.warp_order.resize(warps);
  std::iota(b.warp_order.begin(), b.warp_order.end(), 0u);
  for (std::size_t i = warps; i > 1; --i) std::swap(b.warp_order[i - 1], b.warp_order[b.random.below(i)]);
  b.round.clear();
  for (unsigned w : b.warp_order) {
    const bool downwards = b.random.next() & 1;
    for (unsigned l = 0; l < kWarpSize; ++l) {
      const unsigned i = w * kWarpSize + (downwards ? kWarpSize - 1 - l : l);
      if (i < b.thread_count && (all || b.queued[i])) b.round.push_back(&b.threads[i]);
    }
  }
}

// A whole round, one switch a thread: the worker hands the processor to the round's first thread,
// and each thread, as it suspends, to the next (scheduler::suspend); the last one hands it back.
void run_round(Block& b) {
  if (b.round.empty()) return;
  for (std::size_t k = 1; k < 3 && k < b.round.size(); ++k) scheduler::prefetch(b.round[k]);
  b.chained = true;
  b.round_next = 1;
  Thread* first = b.round[0];
  scheduler::begin_turn(first, false);
  std::move(first->fiber).resume_with([&b](boost::context::fiber&& worker) {
    b.home = std::move(worker);
    return boost::context::fiber{};
  });
  b.chained = false;
}

}  // namespace

void parallel_step(Block& b) {
  for (;;) {
    b.progress = false;
    if (!b.runnable.empty()) {
      order_round(b);
      run_round(b);
      if (b.stopped) return;
    }
    if (b.live == 0) {
      b.finished = true;
      b.progressed = true;
      return;
    }
    if (b.runnable.empty() && b.deferred.empty()) {
      barrier::release(b);
      if (b.stopped) return;  // a block that cannot pass: reported once, it stays where it is
    }
    if (b.progress) b.progressed = true;
    if (!b.progress || b.runnable.empty()) return;
  }
}

void serial_step(Block& b) {
  b.progress = false;
  b.round.swap(b.deferred);
  b.deferred.clear();
  for (Thread* t : b.round) {
    t->waiting = Waiting::no;
    scheduler::run_turn(t, true);
    if (b.stopped) return;
    scheduler::place(b, t);
  }
  if (b.live == 0) b.finished = true;
  if (b.progress || b.finished) b.progressed = true;
}

}  // namespace scanlab::sim::detail::rounds
