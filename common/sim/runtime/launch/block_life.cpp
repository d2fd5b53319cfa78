#include "launch/block_life.hpp"

#include <memory>
#include <utility>

#include "collectives/tile_barrier.hpp"
#include "collectives/warp.hpp"
#include "launch/module_hooks.hpp"
#include "threads/fault_handler.hpp"
#include "threads/fiber_stacks.hpp"
#include "threads/scheduler.hpp"

namespace scanlab::sim::detail::blocks {
namespace {

void thread_exit(Thread* t) {
  t->exited = true;
  t->block->live -= 1;
  warp::lane_exited(*t);
  tile_barrier::thread_exited(*t);
}

// A CUDA thread's fiber outlives its thread: when the kernel returns it parks, and the next
// block that takes this slot hands it new coordinates. Creating a fiber per CUDA thread would
// cost more than everything else a short kernel does.
void start_thread(Thread* t) {
  t->fiber = boost::context::fiber(std::allocator_arg, PooledStack{}, [t](boost::context::fiber&& scheduler_fiber) {
    t->scheduler = std::move(scheduler_fiber);
    for (;;) {
      const Launch& launch = *t->block->launch;
      launch.thread_entry(launch.kernel_call);
      thread_exit(t);
      scheduler::suspend(t);  // parked until the next block in this slot runs it again
    }
    return std::move(t->scheduler);
  });
}

}  // namespace

void start(Block& b, Launch& launch, unsigned linear, unsigned slot, std::uint64_t launch_seed) {
  b.launch = &launch;
  b.linear = linear;
  b.index = unflatten(linear, launch.grid);
  b.slot = slot;
  b.finished = false;
  b.random = Random(launch_seed + (std::uint64_t{linear} + 1) * 0x100000001B3ull);
  if (b.thread_count != launch.threads_per_block || !b.threads) {
    b.threads = std::make_unique<Thread[]>(launch.threads_per_block);  // parked fibers unwind
    b.thread_count = launch.threads_per_block;
  }
  b.live = b.thread_count;
  b.runnable.clear();
  b.deferred.clear();
  for (unsigned i = 0; i < b.thread_count; ++i) {
    Thread* t = &b.threads[i];
    t->coords = Coordinates{unflatten(i, launch.block), b.index, launch.block, launch.grid};
    t->block = &b;
    t->linear = i;
    t->lane = i % kWarpSize;
    t->warp = i / kWarpSize;
    t->exited = false;
    t->waiting = Waiting::no;
    t->last_yield_pc = 0;
    t->store_run_address = 0;
    t->store_run_length = 0;
    if (!t->fiber) start_thread(t);
    b.runnable.push_back(t);
  }
  module_hooks::begin_block(b);
}

void end(Block& b) {
  module_hooks::end_block(b);
  if (b.finished) return;
  // A launch stopped where a thread spun without touching memory (fault_handler.cpp): that
  // thread left a loop that is no call site, and the others of its block may wait inside a hook
  // the compiler took for one that cannot throw, so no fiber of the block can be unwound. Their
  // stacks are left as they are, for the rest of the process (a few KiB each that were touched).
  const bool abandon = fault_handler::spin_stopped_launch();
  for (unsigned i = 0; i < b.thread_count; ++i) {
    Thread& t = b.threads[i];
    if ((abandon || t.abandoned) && t.fiber) new boost::context::fiber(std::move(t.fiber));
    t.abandoned = false;
    t.fiber = boost::context::fiber{};
  }
}

void retire_stopped(Block& b) {
  end(b);  // not finished: its fibers are dropped
  b.runnable.clear();  // nothing of it runs again, in this phase's rounds or the serial phase
  b.deferred.clear();
  b.stopped = false;
  b.stopped_alone = false;
  b.finished = true;
  b.progressed = true;
}

}  // namespace scanlab::sim::detail::blocks
