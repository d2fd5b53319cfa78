// Running a launch: CUDA threads are fibers, and every choice a GPU leaves open (thread order
// inside a barrier interval, which blocks start first, how many run at once) is made by a seeded
// scheduler, so that code relying on one particular order fails here too.
//
// Resident blocks run side by side on worker OS threads, in rounds of two phases. In the
// parallel phase each block runs on its own until it finishes, waits at a barrier, only spins,
// or has threads that wait for an operation other blocks would see (scheduler::cross_block: an
// atomic or volatile access outside shared memory). In the serial phase those operations run,
// block after block in slot order. What a block does in a parallel phase depends only on its
// seed and on memory as the last serial phase left it, so results and reports (printed per block,
// in slot order, after each phase) are the same whatever the number of cores; a race between
// blocks is reported either way.
#include "threads/scheduler.hpp"

#include "checks/counters.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>

#include "base/device_limits.hpp"
#include "base/settings.hpp"
#include "checks/memory_check.hpp"
#include "checks/memory_order.hpp"
#include "checks/race_detector.hpp"
#include "collectives/barrier.hpp"
#include "collectives/tile_barrier.hpp"
#include "collectives/warp.hpp"
#include "findings/errors.hpp"
#include "findings/report.hpp"
#include "launch/coresidency.hpp"
#include "launch/launch_configuration.hpp"
#include "launch/launch_replay.hpp"
#include "memory/managed_memory.hpp"
#include "threads/block.hpp"
#include "threads/fault_handler.hpp"
#include "threads/fiber_stacks.hpp"
#include "threads/launch.hpp"
#include "threads/shared_memory.hpp"
#include "threads/thread.hpp"
#include "threads/worker_pool.hpp"

namespace scanlab::sim::detail {

namespace {

// Rounds in which no resident thread did anything but spin before a deadlock is declared. In
// such a round every resident thread had a turn and memory did not change, so a spin that is
// waiting for another block waits for nothing that will come; only a spin bounded by its own
// count can still end. Large enough for such a loop that gives up after a few thousand polls,
// small enough that a chain of blocks that waits for a block that has not started is
// reported in seconds even with many OS threads (each round hands every slot its turn).
constexpr unsigned kDeadlockRounds = 2000;

std::mutex launch_mutex;  // one launch at a time per process
std::uint32_t launch_counter = 0;

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

// The scheduler's part of a thread's turn: before it runs ...
void begin_turn(Thread* t, bool serial_turn) {
  current_thread = t;
  current_coordinates = &t->coords;
  t->stored_since_yield = false;
  t->in_serial_turn = serial_turn;
  t->used_serial_turn = false;
}
// ... and once it has suspended.
void end_turn(Thread* t) {
  current_thread = nullptr;
  current_coordinates = nullptr;
  t->in_serial_turn = false;
  t->used_serial_turn = false;
  if (t->exited || t->waiting == Waiting::barrier || t->waiting == Waiting::warp || t->stored_since_yield)
    t->block->progress = true;
}

// One turn of one thread, from the worker's own stack and back (two switches). `serial_turn`:
// resumed by the serial phase, where its cross-block operation may run.
void run(Thread* t, bool serial_turn = false) {
  begin_turn(t, serial_turn);
  t->fiber = std::move(t->fiber).resume();
  end_turn(t);
}

// Where a thread goes when it suspends: the next round, the serial phase, or nowhere until
// whatever it waits for wakes it.
void place(Block& b, Thread* t) {
  if (t->exited) return;
  if (t->waiting == Waiting::no) b.runnable.push_back(t);
  else if (t->waiting == Waiting::serial_phase) b.deferred.push_back(t);
}

// The scheduler's part of a block first, then each module's part, which may read it.
void start_block(Block& b, Launch& launch, unsigned linear, unsigned slot, std::uint64_t launch_seed) {
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
    if (!t->fiber) start_thread(t);
    b.runnable.push_back(t);
  }
  barrier::begin_block(b);
  warp::begin_block(b);
  tile_barrier::begin_block(b);
  shared_memory::begin_block(b);
  race_detector::begin_block(b);
  memory_order::begin_block(b);
  memory_check::begin_block(b);
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
  for (std::size_t k = 1; k < 3 && k < b.round.size(); ++k) prefetch(b.round[k]);
  b.chained = true;
  b.round_next = 1;
  Thread* first = b.round[0];
  begin_turn(first, false);
  std::move(first->fiber).resume_with([&b](boost::context::fiber&& worker) {
    b.home = std::move(worker);
    return boost::context::fiber{};
  });
  b.chained = false;
}

// The parallel phase of a block: it runs until it finishes, or until its threads only spin or
// wait for the serial phase. Keeping one block on its OS thread while it makes progress keeps
// its fibers in cache.
void step(Block& b) {
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

// The serial phase of a block: each thread that waits for it runs its cross-block operation,
// in the order the threads came, and goes back to the parallel phase at its next access.
void serial_step(Block& b) {
  b.progress = false;
  b.round.swap(b.deferred);
  b.deferred.clear();
  for (Thread* t : b.round) {
    t->waiting = Waiting::no;
    run(t, true);
    if (b.stopped) return;
    place(b, t);
  }
  if (b.live == 0) b.finished = true;
  if (b.progress || b.finished) b.progressed = true;
}

std::string block_list(const std::vector<unsigned>& blocks, const Launch& launch) {
  std::string s;
  const std::size_t shown = std::min<std::size_t>(blocks.size(), 8);
  for (std::size_t i = 0; i < shown; ++i) s += (i ? " " : "") + format_index(unflatten(blocks[i], launch.grid));
  if (blocks.size() > shown) s += " and " + std::to_string(blocks.size() - shown) + " more";
  return s;
}

// The first thread of a block that spins (rather than waiting at a barrier or a warp collective).
const Thread* spinning_thread(const Block& b) {
  for (unsigned i = 0; i < b.thread_count; ++i) {
    const Thread& t = b.threads[i];
    if (!t.exited && t.waiting != Waiting::barrier && t.waiting != Waiting::warp) return &t;
  }
  return nullptr;
}

// `fit`: how many blocks the device holds at once, where the running blocks wait for blocks
// that have not started and the grid does not fit.
void report_deadlock(Launch& launch, const std::vector<Block*>& resident, const std::vector<unsigned>& waiting,
                     const coresidency::GridFit* fit) {
  Finding f;
  f.kind = ReportKind::deadlock;
  f.headline = "deadlock: none of the " + std::to_string(resident.size()) +
               " running blocks can make progress (the kernel would hang on a GPU)";
  for (Block* b : resident) {
    if (f.parties.size() >= 8) break;
    if (const Thread* t = spinning_thread(*b)) f.parties.push_back(party("spinning", t, locate(t->last_yield_pc)));
  }
  f.details.push_back("blocks not yet started: " + (waiting.empty() ? std::string("none") : block_list(waiting, launch)) +
                      "; " + std::to_string(resident.size()) +
                      " blocks run at once here (SCANLAB_SIM_RESIDENT_BLOCKS), and a GPU also runs only as many as "
                      "fit on its multiprocessors");
  if (fit)
    f.details.push_back("the grid of " + std::to_string(fit->blocks) + " blocks does not fit at once: " +
                        coresidency::describe(*fit) +
                        "; a wait for every block of it (a grid-wide barrier) can never end: split the kernel into "
                        "two launches there");
  if (!waiting.empty()) {
    f.details.push_back("blocks start in no fixed order (here " + std::string(block_order_name(schedule().block_order)) +
                        ": SCANLAB_SIM_BLOCK_ORDER), so a block that waits for another by its blockIdx (a chain, a "
                        "look-back) may wait for one that has not started, and then waits forever");
    f.details.push_back("take a ticket: one thread of each block takes its tile number from a global counter "
                        "(tile = atomicAdd(&next_tile, 1), the counter zeroed before the launch) and shares it through "
                        "shared memory; tiles are then numbered in the order blocks start, and a block waits only for "
                        "tiles of blocks that started before it");
  }
  f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchTimeout");
  report(f);
  launch.aborted = true;
  launch.error = cudaErrorLaunchTimeout;
}

std::vector<unsigned> dispatch_order(unsigned count, const Schedule& s, Random& random) {
  std::vector<unsigned> order(count);
  std::iota(order.begin(), order.end(), 0u);
  if (s.block_order == Schedule::BlockOrder::reverse) std::reverse(order.begin(), order.end());
  if (s.block_order == Schedule::BlockOrder::random)
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[random.below(i)]);
  return order;
}

// The worker (OS thread) that runs a slot, always the same one (a parked fiber resumes on the
// worker that made it): slot k % workers for the first kMaxResidentBlocks, which spreads any
// number of resident blocks over every worker. Slots beyond them (a grid admitted whole, hundreds
// of slots) go to the workers in runs of kMaxResidentBlocks consecutive slots: the serial phase
// visits slots in order, and each change of worker between two turns is a hand-off between OS
// threads, which costs far more than the turn (a chain of 391 blocks took 8 times as long with
// the slots alternating between two workers as on one).
unsigned worker_of(unsigned slot, unsigned workers) {
  return slot < kMaxResidentBlocks ? slot % workers : slot / kMaxResidentBlocks % workers;
}

// The resident slots and their blocks: as many as a launch ever had at once. Never destroyed, like
// the stacks: parked fibers need no unwinding at exit.
struct Slots {
  std::vector<std::unique_ptr<Block>> blocks;
  unsigned workers = 0;  // the worker count the parked fibers were made under
};
Slots& slots() {
  static Slots* s = new Slots;
  return *s;
}

// One launch while it runs: what the host thread decides between phases, and what the workers
// read during them.
struct Run {
  Launch* launch = nullptr;
  unsigned workers = 1;  // slot k belongs to worker_of(k, workers)
  unsigned busy_workers = 1;  // those that own a slot of this launch: 0 .. busy_workers - 1
  unsigned slot_count = 0;
  std::uint64_t seed = 0;
  // Slot k runs the blocks order[k], order[k + slot_count], order[k + 2 slot_count], ... one
  // after the other: a block starts as soon as the one before it in its slot finishes, in the
  // same phase, so blocks that do not wait for each other flow without a round's barrier.
  // Once every block is admitted (admit_every_block), each slot runs one block.
  const std::vector<unsigned>* order = nullptr;
  bool every_block_admitted = false;
  std::vector<std::size_t> position;  // per slot: where in `order` its current block is
  // Per slot (not std::vector<bool>, whose bits share words: workers write their own slots').
  std::vector<char> resident;         // a block of this launch is there
  std::vector<char> to_start;         // its current block has not started yet
  std::vector<unsigned> serial_slots;  // slots with threads waiting for the serial phase, in order

  Block& block(unsigned slot) const { return *slots().blocks[slot]; }
  bool owns(unsigned worker, unsigned slot) const { return worker_of(slot, workers) == worker; }
  // Moves the slot on to its next block; false when it has none.
  bool advance(unsigned slot) {
    position[slot] += slot_count;
    to_start[slot] = !every_block_admitted && position[slot] < order->size();
    return to_start[slot] != 0;
  }
  // Where in `order` the blocks are that wait for a slot of their own: behind the current
  // block of each slot.
  std::vector<std::size_t> queued() const {
    std::vector<std::size_t> positions;
    if (every_block_admitted) return positions;
    for (unsigned slot = 0; slot < slot_count; ++slot)
      for (std::size_t i = position[slot] + slot_count; i < order->size(); i += slot_count) positions.push_back(i);
    std::sort(positions.begin(), positions.end());
    return positions;
  }
  std::vector<unsigned> not_started() const {
    std::vector<std::size_t> positions = queued();
    for (unsigned slot = 0; slot < slot_count; ++slot)
      if (to_start[slot]) positions.push_back(position[slot]);
    std::sort(positions.begin(), positions.end());
    std::vector<unsigned> blocks;
    for (std::size_t i : positions) blocks.push_back((*order)[i]);
    return blocks;
  }
};

// A slot before a launch's block first takes it; made the first time a launch needs it.
void prepare_slot(unsigned slot) {
  Slots& all = slots();
  if (all.blocks.size() <= slot) all.blocks.resize(slot + 1);
  if (!all.blocks[slot]) all.blocks[slot] = std::make_unique<Block>();
  Block& b = *all.blocks[slot];
  b.stopped = false;
  b.stopped_alone = false;
  b.progressed = false;
  b.error = cudaSuccess;
}

// Every block that waits for a slot gets one of its own, and starts in the next parallel phase.
void admit_every_block(Run& r) {
  for (std::size_t i : r.queued()) {
    const unsigned slot = r.slot_count++;
    prepare_slot(slot);
    r.position.push_back(i);
    r.resident.push_back(1);
    r.to_start.push_back(1);
  }
  r.every_block_admitted = true;
  r.busy_workers = std::min(r.workers, r.slot_count);
}

// A block stopped on its own (scheduler::stop_block) leaves its slot as a finished one does,
// its fibers unwound on the worker that owns them; the launch keeps its error.
void retire_stopped_block(Block& b) {
  end_block(b);  // not finished: its fibers are dropped
  b.runnable.clear();  // nothing of it runs again, in this phase's rounds or the serial phase
  b.deferred.clear();
  b.stopped = false;
  b.stopped_alone = false;
  b.finished = true;
  b.progressed = true;
}

void parallel_phase(void* context, unsigned worker) {
  Run& r = *static_cast<Run*>(context);
  for (unsigned slot = worker; slot < r.slot_count; ++slot) {
    if (!r.owns(worker, slot) || !r.resident[slot]) continue;
    Block& b = r.block(slot);
    pending_findings = &b.findings;  // the slot's findings of this phase, of every block it ran
    for (;;) {
      if (r.to_start[slot]) {
        start_block(b, *r.launch, (*r.order)[r.position[slot]], slot, r.seed);
        r.to_start[slot] = 0;
      }
      if (!b.finished && !b.stopped) step(b);
      if (b.stopped_alone) {
        retire_stopped_block(b);
        if (!r.advance(slot)) break;
        continue;
      }
      if (!b.finished) break;
      end_block(b);
      if (!r.advance(slot)) break;
    }
    pending_findings = nullptr;
  }
}

void serial_phase(void* context, unsigned worker) {
  Run& r = *static_cast<Run*>(context);
  for (unsigned turn = 0; turn < r.serial_slots.size(); ++turn) {
    const unsigned slot = r.serial_slots[turn];
    if (!r.owns(worker, slot)) continue;
    worker_pool::wait_for_turn(turn);
    Block& b = r.block(slot);
    pending_findings = &b.findings;
    serial_step(b);
    if (b.stopped_alone) {
      retire_stopped_block(b);
      r.advance(slot);  // its next block starts in the next parallel phase
    } else if (b.finished) {
      end_block(b);
      r.advance(slot);  // it starts in the next parallel phase
    }
    pending_findings = nullptr;
    worker_pool::next_turn();
  }
}

// A stopped launch leaves blocks behind: their fibers unwind on their own workers.
void teardown_phase(void* context, unsigned worker) {
  Run& r = *static_cast<Run*>(context);
  for (unsigned slot = worker; slot < r.slot_count; ++slot)
    if (r.owns(worker, slot) && r.resident[slot] && !r.block(slot).finished) end_block(r.block(slot));
}

// Parked fibers belong to the worker that made them; when the number of workers changes, each
// worker drops its own before the slots change hands.
void drop_parked_fibers(void*, unsigned worker) {
  Slots& s = slots();
  for (unsigned slot = worker; slot < s.blocks.size(); ++slot)
    if (worker_of(slot, s.workers) == worker && s.blocks[slot]) {
      s.blocks[slot]->threads.reset();
      s.blocks[slot]->thread_count = 0;
    }
}

// After a phase, on the host thread: each block's findings and errors in slot order, up to
// the first block that stopped the launch (what later blocks found is dropped, whatever
// timing let them do).
void collect(Run& r) {
  Launch& launch = *r.launch;
  for (unsigned slot = 0; slot < r.slot_count; ++slot) {
    if (!r.resident[slot]) continue;
    Block& b = r.block(slot);
    if (launch.aborted) {
      drop_findings(b.findings);
      continue;
    }
    print_findings(b.findings);
    if (b.stopped) {
      launch.aborted = true;
      launch.error = b.error;
    } else if (b.error != cudaSuccess && launch.error == cudaSuccess) {
      launch.error = b.error;
    }
    if (b.progressed) launch.progress = true;
    b.progressed = false;
  }
}

}  // namespace

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

void scheduler::cross_block(Thread* t, std::uintptr_t pc) {
  t->last_yield_pc = pc;
  if (!t->in_serial_turn || t->used_serial_turn) wait(t, Waiting::serial_phase);
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
  print_findings_on_signal();
  const auto replay = launch_replay::begin(request);
  if (launch_replay::replayed(*replay)) {
    ++launch_counter;  // later launches draw the same schedules as when this one runs
    managed_memory::kernel_launched(Site{request.file, request.line}, request.stream);
    return;
  }

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
  Random random(s.seed * 1000003u + launch.id);
  const std::vector<unsigned> order = dispatch_order(launch.block_count, s, random);

  Run r;
  r.launch = &launch;
  r.slot_count = std::min(resident_slots(s), launch.block_count);
  r.workers = std::min(worker_pool::configured_threads(), kMaxResidentBlocks);
  r.busy_workers = std::min(r.workers, r.slot_count);
  r.seed = s.seed * 1000003u + launch.id;
  r.order = &order;
  r.position.resize(r.slot_count);
  std::iota(r.position.begin(), r.position.end(), std::size_t{0});
  r.resident.assign(r.slot_count, 1);
  r.to_start.assign(r.slot_count, 1);
  Slots& all = slots();
  if (all.workers != r.workers) {
    if (all.workers != 0) worker_pool::run_on_each(all.workers, drop_parked_fibers, nullptr);
    all.workers = r.workers;
  }
  for (unsigned slot = 0; slot < r.slot_count; ++slot) prepare_slot(slot);
  set_launch_running(true);
  race_detector::begin_launch(launch.id, s.race_check, r.workers > 1);
  memory_order::begin_launch();
  counters::begin_launch(launch);

  unsigned idle_rounds = 0;
  std::optional<coresidency::GridFit> fit;  // where running blocks waited for blocks not started
  std::optional<Party> waited;               // ... and the grid fits: one of them, where it waited
  std::uintptr_t waited_pc = 0;
  while (!launch.aborted && std::find(r.resident.begin(), r.resident.end(), 1) != r.resident.end()) {
    launch.progress = false;
    worker_pool::run_on_each(r.busy_workers, parallel_phase, &r);
    collect(r);
    if (launch.aborted) break;

    r.serial_slots.clear();
    for (unsigned slot = 0; slot < r.slot_count; ++slot)
      if (r.resident[slot] && !r.block(slot).deferred.empty()) r.serial_slots.push_back(slot);
    if (!r.serial_slots.empty()) {
      worker_pool::reset_turns();
      worker_pool::run_on_each(r.busy_workers, serial_phase, &r);
      collect(r);
      if (launch.aborted) break;
    }

    for (unsigned slot = 0; slot < r.slot_count; ++slot) {
      if (!r.resident[slot]) continue;
      Block& b = r.block(slot);
      counters::add_block_counts(b);
      if (b.finished && !r.to_start[slot]) r.resident[slot] = 0;  // its last block is done
    }
    idle_rounds = launch.progress ? 0 : idle_rounds + 1;
    if (idle_rounds > kDeadlockRounds) {
      std::vector<Block*> resident;
      std::size_t shared_bytes = launch.dynamic_shared_bytes;
      for (unsigned slot = 0; slot < r.slot_count; ++slot)
        if (r.resident[slot] && !r.block(slot).finished) {
          resident.push_back(&r.block(slot));
          if (!r.to_start[slot]) shared_bytes = std::max(shared_bytes, shared_memory::bytes_declared(r.block(slot)));
        }
      const std::vector<unsigned> not_started = r.not_started();
      // The running blocks wait for blocks that have not started. A GPU that holds the whole
      // grid at once runs it to the end: so does the simulator, unless told how many blocks run.
      if (!not_started.empty() && !r.every_block_admitted && may_admit_to_fit(s)) {
        fit = coresidency::grid_fit(launch, shared_bytes);
        if (fit->fits()) {
          const Thread* t = resident.empty() ? nullptr : spinning_thread(*resident.front());
          if (t) {
            waited = party("waiting", t, locate(t->last_yield_pc));
            waited_pc = t->last_yield_pc;
          }
          admit_every_block(r);
          idle_rounds = 0;
          continue;
        }
      }
      report_deadlock(launch, resident, not_started, fit && !fit->fits() ? &*fit : nullptr);
    }
  }
  worker_pool::run_on_each(r.busy_workers, teardown_phase, &r);  // only a stopped launch leaves blocks behind
  if (waited && !launch.aborted && 
      first_time(ReportKind::coresidency, waited_pc, reinterpret_cast<std::uintptr_t>(launch.thread_entry)))
    coresidency::report_relied_on_coresidency(launch, *fit, *waited);
  race_detector::end_launch();
  set_launch_running(false);
  for (unsigned slot = 0; slot < r.slot_count; ++slot) counters::add_block_counts(r.block(slot));
  if (launch.error != cudaSuccess) set_pending_error(launch.error);
  launch_replay::finish(*replay, launch);
  managed_memory::kernel_launched(launch.site, request.stream);
}

}  // namespace scanlab::sim::detail
