// Running a launch: CUDA threads are fibers, blocks take turns, and every choice a GPU leaves
// open (thread order inside a barrier interval, which blocks start first, how many run at once)
// is made by a seeded scheduler, so that code relying on one particular order fails here too.
#include "scheduler.hpp"

#include "counters.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <numeric>
#include <string>

#include "barrier.hpp"
#include "block.hpp"
#include "device_limits.hpp"
#include "errors.hpp"
#include "fault_handler.hpp"
#include "fiber_stacks.hpp"
#include "launch.hpp"
#include "launch_configuration.hpp"
#include "managed_memory.hpp"
#include "race_detector.hpp"
#include "report.hpp"
#include "schedule.hpp"
#include "shared_memory.hpp"
#include "thread.hpp"
#include "warp.hpp"

namespace scanlab::sim::detail {

thread_local Thread* current_thread = nullptr;
thread_local const Coordinates* current_coordinates = nullptr;

namespace {

// Rounds in which no resident thread did anything but spin before a deadlock is declared.
// Large enough for bounded spin loops with a retry counter to give up on their own.
constexpr unsigned kDeadlockRounds = 20000;

std::mutex launch_mutex;  // one launch at a time per process
std::uint32_t launch_counter = 0;

void thread_exit(Thread* t) {
  t->exited = true;
  t->block->live -= 1;
  warp::lane_exited(*t);
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

// A suspended fiber is a pointer to the registers saved on its stack. Fetching them (and the
// Thread) before their turn hides most of a context switch's cache misses: a round visits
// every thread of a block, and each thread's stack was last touched a whole round ago.
void prefetch(const Thread* t) {
  static_assert(sizeof(boost::context::fiber) == sizeof(void*), "boost::context::fiber holds one context pointer");
  const char* context;
  std::memcpy(&context, &t->fiber, sizeof context);
  __builtin_prefetch(t);
  if (context) {
    __builtin_prefetch(context);
    __builtin_prefetch(context + 64);
  }
}

void run(Thread* t) {
  current_thread = t;
  current_coordinates = &t->coords;
  t->stored_since_yield = false;
  t->fiber = std::move(t->fiber).resume();
  current_thread = nullptr;
  current_coordinates = nullptr;
  if (t->exited || t->waiting != Waiting::no || t->stored_since_yield) t->block->progress = true;
}

// The scheduler's part of a block first, then each module's part, which may read it.
void start_block(Block& b, Launch& launch, unsigned linear, unsigned slot) {
  b.launch = &launch;
  b.linear = linear;
  b.index = unflatten(linear, launch.grid);
  b.slot = slot;
  b.finished = false;
  if (b.thread_count != launch.threads_per_block || !b.threads) {
    b.threads = std::make_unique<Thread[]>(launch.threads_per_block);  // parked fibers unwind
    b.thread_count = launch.threads_per_block;
  }
  b.live = b.thread_count;
  b.runnable.clear();
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
    if (!t->fiber) start_thread(t);
    b.runnable.push_back(t);
  }
  barrier::begin_block(b);
  warp::begin_block(b);
  shared_memory::begin_block(b);
  race_detector::begin_block(b);
  counters::begin_block(b);
}

// A block leaves its slot, finished or stopped with the launch. The fibers of a stopped block
// are dropped (they unwind); those of a finished one are parked, ready for the next block.
void end_block(Block& b) {
  counters::end_block(b);  // the last interval, while the shared memory is still placed
  shared_memory::end_block(b);
  if (b.finished) return;
  for (unsigned i = 0; i < b.thread_count; ++i) b.threads[i].fiber = boost::context::fiber{};
}

// Runs a block until it finishes or until its threads only spin, waiting for another block.
// Keeping one block on the processor while it makes progress keeps its fibers in cache; blocks
// interleave where they can interact: at atomics, volatile accesses and fences.
void step(Block& b, Random& random) {
  Launch& launch = *b.launch;
  for (;;) {
    b.progress = false;
    if (!b.runnable.empty()) {
      b.round.swap(b.runnable);
      b.runnable.clear();
      for (std::size_t i = b.round.size(); i > 1; --i) std::swap(b.round[i - 1], b.round[random.below(i)]);
      constexpr std::size_t kPrefetchDistance = 2;
      for (std::size_t k = 0; k < b.round.size(); ++k) {
        if (k + kPrefetchDistance < b.round.size()) prefetch(b.round[k + kPrefetchDistance]);
        Thread* t = b.round[k];
        run(t);
        if (launch.aborted) return;
        if (!t->exited && t->waiting == Waiting::no) b.runnable.push_back(t);  // it yielded
      }
    }
    if (b.live == 0) {
      b.finished = true;
      return;
    }
    if (b.runnable.empty()) {
      barrier::release(b);
      if (launch.aborted) return;  // a block that cannot pass: reported once, it stays where it is
    }
    if (b.progress) launch.progress = true;
    else return;
  }
}

std::string block_list(const std::vector<unsigned>& blocks, const Launch& launch) {
  std::string s;
  const std::size_t shown = std::min<std::size_t>(blocks.size(), 8);
  for (std::size_t i = 0; i < shown; ++i) s += (i ? " " : "") + format_index(unflatten(blocks[i], launch.grid));
  if (blocks.size() > shown) s += " and " + std::to_string(blocks.size() - shown) + " more";
  return s;
}

void report_deadlock(Launch& launch, const std::vector<Block*>& resident, const std::vector<unsigned>& waiting) {
  Finding f;
  f.kind = ReportKind::deadlock;
  f.headline = "deadlock: none of the " + std::to_string(resident.size()) +
               " running blocks can make progress (the kernel would hang on a GPU)";
  for (Block* b : resident) {
    if (f.parties.size() >= 8) break;
    for (unsigned i = 0; i < b->thread_count; ++i) {
      const Thread& t = b->threads[i];
      if (!t.exited && t.waiting == Waiting::no) {
        f.parties.push_back(party("spinning", &t, locate(t.last_yield_pc)));
        break;
      }
    }
  }
  f.details.push_back("blocks not yet started: " + (waiting.empty() ? std::string("none") : block_list(waiting, launch)) +
                      "; " + std::to_string(schedule().resident_blocks) +
                      " blocks run at once here (SCANLAB_SIM_RESIDENT_BLOCKS), and a GPU also runs only as many as "
                      "fit on its multiprocessors");
  if (!waiting.empty())
    f.details.push_back("a block that waits for a block that has not started waits forever: blocks do not start "
                        "in blockIdx order; number blocks in the order they start, with an atomic counter");
  f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchTimeout");
  report(f);
  scheduler::stop(launch, cudaErrorLaunchTimeout);
}

std::vector<unsigned> dispatch_order(unsigned count, const Schedule& s, Random& random) {
  std::vector<unsigned> order(count);
  std::iota(order.begin(), order.end(), 0u);
  if (s.block_order == Schedule::BlockOrder::reverse) std::reverse(order.begin(), order.end());
  if (s.block_order == Schedule::BlockOrder::random)
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[random.below(i)]);
  return order;
}

}  // namespace

void scheduler::suspend(Thread* t) { t->scheduler = std::move(t->scheduler).resume(); }

void scheduler::yield(Thread* t, std::uintptr_t pc) {
  t->last_yield_pc = pc;
  suspend(t);
}

void scheduler::abort_kernel(Thread* t, cudaError_t error) {
  Launch& launch = *t->block->launch;
  launch.aborted = true;
  if (launch.error == cudaSuccess) launch.error = error;
  suspend(t);  // never resumed: the scheduler unwinds this fiber
  std::abort();
}

const Coordinates& coordinates_or_die(const char* name, const char* file, unsigned line) {
  Finding f;
  f.kind = ReportKind::unsupported;
  f.headline = std::string(name) + " used outside a kernel";
  f.parties.push_back(host_party("use", locate(Site{file, line})));
  f.details.push_back("built-in variables exist only in code that a kernel launch runs");
  report(f);
  std::fflush(nullptr);
  std::abort();
}

void launch(const LaunchRequest& request) {
  if (current_thread) {
    Finding f;
    f.kind = ReportKind::unsupported;
    f.headline = "a kernel launched from device code (dynamic parallelism) cannot run in the simulator";
    f.parties.push_back(party("launch", current_thread, locate(Site{request.file, request.line})));
    report(f);
    scheduler::abort_kernel(current_thread, cudaErrorNotSupported);
  }
  if (!valid_launch_configuration(request)) return;
  std::lock_guard<std::mutex> lock(launch_mutex);
  fault_handler::install();

  Launch launch;
  launch.id = ++launch_counter;
  launch.grid = request.grid;
  launch.block = request.block;
  launch.dynamic_shared_bytes = request.dynamic_shared_bytes;
  launch.site = Site{request.file, request.line};
  launch.thread_entry = request.thread_entry;
  launch.kernel_call = request.kernel_call;
  launch.threads_per_block = request.block.x * request.block.y * request.block.z;
  launch.block_count = request.grid.x * request.grid.y * request.grid.z;
  const Schedule s = schedule();
  race_detector::begin_launch(launch.id, s.race_check);
  counters::begin_launch(launch);
  Random random(s.seed * 1000003u + launch.id);
  std::vector<unsigned> order = dispatch_order(launch.block_count, s, random);
  const unsigned slots = std::min(s.resident_blocks, launch.block_count);

  // Never destroyed, like the stacks: its parked fibers need no unwinding at exit.
  static auto& pool = *new std::vector<std::unique_ptr<Block>>();
  if (pool.size() < kMaxResidentBlocks) pool.resize(kMaxResidentBlocks);
  std::vector<Block*> resident;
  std::vector<unsigned> free_slots(slots);
  std::iota(free_slots.rbegin(), free_slots.rend(), 0u);
  std::size_t next = 0;
  unsigned idle_rounds = 0;

  while (!launch.aborted) {
    while (!free_slots.empty() && next < order.size()) {
      const unsigned slot = free_slots.back();
      free_slots.pop_back();
      if (!pool[slot]) pool[slot] = std::make_unique<Block>();
      start_block(*pool[slot], launch, order[next++], slot);
      resident.push_back(pool[slot].get());
    }
    if (resident.empty()) break;
    launch.progress = false;
    for (Block* b : resident) {
      step(*b, random);
      if (launch.aborted) break;
    }
    if (launch.aborted) break;
    for (std::size_t i = 0; i < resident.size();) {
      if (resident[i]->finished) {
        end_block(*resident[i]);
        free_slots.push_back(resident[i]->slot);
        resident.erase(resident.begin() + static_cast<std::ptrdiff_t>(i));
        launch.progress = true;
      } else {
        ++i;
      }
    }
    idle_rounds = launch.progress ? 0 : idle_rounds + 1;
    if (idle_rounds > kDeadlockRounds) {
      report_deadlock(launch, resident, std::vector<unsigned>(order.begin() + static_cast<std::ptrdiff_t>(next), order.end()));
    }
  }
  for (Block* b : resident) end_block(*b);  // only a stopped launch leaves blocks behind
  if (launch.error != cudaSuccess) set_pending_error(launch.error);
  managed_memory::kernel_launched(launch.site, request.stream);
}

}  // namespace scanlab::sim::detail
