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
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <numeric>
#include <optional>
#include <vector>

#include "base/device_limits.hpp"
#include "base/settings.hpp"
#include "checks/counters.hpp"
#include "checks/memory_check.hpp"
#include "findings/errors.hpp"
#include "findings/report.hpp"
#include "launch/coresidency.hpp"
#include "launch/deadlock.hpp"
#include "launch/garbage_judgement.hpp"
#include "launch/launch_configuration.hpp"
#include "launch/launch_replay.hpp"
#include "launch/module_hooks.hpp"
#include "launch/run.hpp"
#include "memory/managed_memory.hpp"
#include "memory/memory.hpp"
#include "threads/fault_handler.hpp"
#include "threads/scheduler.hpp"
#include "threads/shared_memory.hpp"
#include "threads/worker_pool.hpp"

namespace scanlab::sim::detail {
namespace {

using launch_run::Run;

std::mutex launch_mutex;  // one launch at a time per process
std::uint32_t launch_counter = 0;

std::vector<unsigned> dispatch_order(unsigned count, const Schedule& s, Random& random) {
  std::vector<unsigned> order(count);
  std::iota(order.begin(), order.end(), 0u);
  if (s.block_order == Schedule::BlockOrder::reverse) std::reverse(order.begin(), order.end());
  if (s.block_order == Schedule::BlockOrder::random)
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[random.below(i)]);
  return order;
}

// A launch from device code (dynamic parallelism): reported, and the launching kernel stops.
[[noreturn]] void refuse_launch_from_device(const LaunchRequest& request) {
  Finding f;
  f.kind = ReportKind::unsupported;
  f.headline = "a kernel launched from device code (dynamic parallelism) cannot run in the simulator";
  f.parties.push_back(party("launch", current_thread, locate(Site{request.file, request.line})));
  report(f);
  scheduler::abort_kernel(current_thread, cudaErrorNotSupported);
}

Launch describe(const LaunchRequest& request, std::uint32_t id) {
  Launch launch;
  launch.id = id;
  launch.grid = request.grid;
  launch.block = request.block;
  launch.dynamic_shared_bytes = request.dynamic_shared_bytes;
  launch.site = Site{request.file, request.line};
  launch.thread_entry = request.thread_entry;
  launch.kernel_call = request.kernel_call;
  launch.cooperative = request.cooperative;
  launch.threads_per_block = request.block.x * request.block.y * request.block.z;
  launch.block_count = request.grid.x * request.grid.y * request.grid.z;
  return launch;
}

// The run's slots, each with its first block of `order` to start, and the workers that run them.
void prepare(Run& r, Launch& launch, const Schedule& s, const std::vector<unsigned>& order) {
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
  launch_run::Slots& all = launch_run::slots();
  if (all.workers != r.workers) {
    if (all.workers != 0) worker_pool::run_on_each(all.workers, launch_run::drop_parked_fibers, nullptr);
    all.workers = r.workers;
  }
  for (unsigned slot = 0; slot < r.slot_count; ++slot) launch_run::prepare_slot(slot);
}

// One round: the parallel phase, then the serial phase where threads wait for it. False when
// the launch stopped.
bool run_round(Run& r) {
  worker_pool::run_on_each(r.busy_workers, launch_run::parallel_phase, &r);
  launch_run::collect(r);
  if (r.launch->aborted) return false;
  r.serial_slots.clear();
  for (unsigned slot = 0; slot < r.slot_count; ++slot)
    if (r.resident[slot] && !r.block(slot).deferred.empty()) r.serial_slots.push_back(slot);
  if (!r.serial_slots.empty()) {
    worker_pool::reset_turns();
    worker_pool::run_on_each(r.busy_workers, launch_run::serial_phase, &r);
    launch_run::collect(r);
    if (r.launch->aborted) return false;
  }
  return true;
}

// After a round: what each slot counted goes into the process's counters (unless the launch runs
// again only to compare its results), and a slot whose last block is done is resident no more.
void end_round(Run& r, bool counted) {
  for (unsigned slot = 0; slot < r.slot_count; ++slot) {
    if (!r.resident[slot]) continue;
    Block& b = r.block(slot);
    if (counted) counters::add_block_counts(b);
    if (b.finished && !r.to_start[slot]) r.resident[slot] = 0;
  }
}

// Where the running blocks waited for blocks not started and the grid fits: how it fits, and a
// thread that waited, where.
struct ReliedOnCoresidency {
  std::optional<coresidency::GridFit> fit;
  std::optional<Party> waited;
  std::uintptr_t waited_pc = 0;
  std::optional<WaitPicture> blocks;  // when the running blocks all waited, for the warning's picture
};

// No resident thread did more than spin for deadlock::kRounds rounds. Where they wait for blocks
// that have not started and a GPU would hold the whole grid at once, every block is admitted (so
// the simulator runs it to the end, unless told how many blocks run): true. Otherwise the launch
// is reported as a deadlock and stops.
bool admit_or_report_deadlock(Run& r, const Schedule& s, ReliedOnCoresidency& relied) {
  Launch& launch = *r.launch;
  std::vector<Block*> resident;
  std::size_t shared_bytes = launch.dynamic_shared_bytes;
  for (unsigned slot = 0; slot < r.slot_count; ++slot)
    if (r.resident[slot] && !r.block(slot).finished) {
      resident.push_back(&r.block(slot));
      if (!r.to_start[slot]) shared_bytes = std::max(shared_bytes, shared_memory::bytes_declared(r.block(slot)));
    }
  const std::vector<unsigned> not_started = r.not_started();
  if (!not_started.empty() && !r.every_block_admitted && may_admit_to_fit(s)) {
    relied.fit = coresidency::grid_fit(launch, shared_bytes);
    if (relied.fit->fits()) {
      const Thread* t = resident.empty() ? nullptr : deadlock::spinning_thread(*resident.front());
      if (t) {
        relied.waited = party("waiting", t, locate(t->last_yield_pc));
        relied.waited_pc = t->last_yield_pc;
      }
      if (!relied.blocks) relied.blocks = deadlock::wait_picture(launch, resident, not_started);
      launch_run::admit_every_block(r);
      return true;
    }
  }
  const std::optional<coresidency::GridFit>& fit = relied.fit;
  deadlock::report(launch, resident, not_started, fit && !fit->fits() ? &*fit : nullptr);
  return false;
}

// Runs the launch from its first block to its end. A judging run (garbage_judgement.hpp) runs
// it again only to compare what it leaves in device memory: it adds nothing to the counters.
void run_launch(Launch& launch, const Schedule& s, bool judging) {
  Random random(s.seed * 1000003u + launch.id);
  const std::vector<unsigned> order = dispatch_order(launch.block_count, s, random);
  Run r;
  prepare(r, launch, s, order);
  if (launch.cooperative) launch_run::admit_every_block(r);  // a GPU holds every block of it at once
  launch.race_check = s.race_check;
  launch.parallel = r.workers > 1;
  set_launch_running(true);
  fault_handler::launch_begins();
  module_hooks::begin_launch(launch);

  unsigned idle_rounds = 0;
  ReliedOnCoresidency relied;
  while (!launch.aborted && std::find(r.resident.begin(), r.resident.end(), 1) != r.resident.end()) {
    launch.progress = false;
    if (!run_round(r)) break;
    end_round(r, !judging);
    idle_rounds = launch.progress ? 0 : idle_rounds + 1;
    if (idle_rounds > deadlock::kRounds && admit_or_report_deadlock(r, s, relied)) idle_rounds = 0;
  }
  worker_pool::run_on_each(r.busy_workers, launch_run::teardown_phase, &r);  // only a stopped launch leaves blocks behind
  if (relied.waited && !launch.aborted &&
      first_time(ReportKind::coresidency, relied.waited_pc, reinterpret_cast<std::uintptr_t>(launch.thread_entry)))
    coresidency::report_relied_on_coresidency(launch, *relied.fit, *relied.waited, std::move(relied.blocks));
  fault_handler::launch_ends();
  module_hooks::end_launch(launch);
  set_launch_running(false);
  if (!judging)
    for (unsigned slot = 0; slot < r.slot_count; ++slot) counters::add_block_counts(r.block(slot));
}

// The launch's reads of shared memory that nothing wrote, held while it ran: reported where the
// garbage reaches its results, or where that cannot be learned (garbage_judgement.hpp).
void judge_garbage_reads(const LaunchRequest& request, const Launch& first, const Schedule& s,
                         const garbage_judgement::DeviceMemoryCopy& before) {
  memory_check::hold_shared_garbage_reads(false);
  std::vector<memory_check::HeldRead> reads = memory_check::take_held_garbage_reads();
  if (reads.empty()) return;
  const bool judged = before.taken() && !first.aborted && first.error == cudaSuccess && launch_replay::repeatable();
  bool reaches = true;
  if (judged) {
    // The first run's end let go of their texts; a signal during the second run prints them
    // (its end lets go of them again).
    for (memory_check::HeldRead& read : reads) read.kept = memory_check::keep_unjudged_until_printed(read);
    const garbage_judgement::DeviceMemoryCopy after = garbage_judgement::DeviceMemoryCopy::take();
    before.restore();
    Launch again = describe(request, first.id);  // the same id: the same seed, so the same schedule
    mute_findings(true);
    launch_replay::pause_watch(true);
    memory::set_shared_garbage_byte(garbage_judgement::kOtherGarbageByte);
    run_launch(again, s, true);
    memory::set_shared_garbage_byte(memory::kUninitializedByte);
    launch_replay::pause_watch(false);
    mute_findings(false);
    reaches = again.aborted || again.error != cudaSuccess || !after.same_as_now();
    after.restore();
  }
  if (!reaches) return;
  for (memory_check::HeldRead read : reads) {
    if (judged)
      read.finding.details.push_back("the garbage reaches the kernel's results: run again with other garbage in "
                                     "its shared memory, the launch left different values in device memory");
    memory_check::report_held_read(read);
  }
}

// A cooperative launch whose grid the device does not hold at once fails, as on a GPU, with
// cudaErrorCooperativeLaunchTooLarge: the blocks it holds are the multiprocessors it reports
// (cudaDevAttrMultiProcessorCount) times the blocks the occupancy calculator puts on each.
bool cooperative_grid_fits(const LaunchRequest& request) {
  const Launch launch = describe(request, 0);
  coresidency::GridFit fit = coresidency::grid_fit(launch, request.dynamic_shared_bytes);
  const unsigned multiprocessors = resident_slots(schedule());
  fit.capacity = fit.per_multiprocessor * multiprocessors;
  if (fit.fits()) return true;
  Finding f;
  f.kind = ReportKind::invalid_launch;
  f.headline = "cooperative launch of " + std::to_string(fit.blocks) + " blocks: the device holds only " +
               std::to_string(fit.capacity) + " of them at once";
  f.parties.push_back(host_party("launch", locate(Site{request.file, request.line})));
  f.details.push_back("the device reports " + std::to_string(multiprocessors) +
                      " multiprocessors (cudaDevAttrMultiProcessorCount), each holding " +
                      std::to_string(fit.per_multiprocessor) + " blocks of " + std::to_string(fit.threads_per_block) +
                      " threads and " + std::to_string(fit.shared_bytes_per_block) +
                      " bytes of dynamic shared memory (cudaOccupancyMaxActiveBlocksPerMultiprocessor)");
  f.details.push_back("size the grid as their product, and loop over the data inside the kernel");
  f.details.push_back("the launch returns cudaErrorCooperativeLaunchTooLarge");
  report(f);
  set_pending_error(cudaErrorCooperativeLaunchTooLarge);
  return false;
}

// After an error that sticks, a GPU runs no kernel again: the launch returns the error. The first
// such launch says so once, so that a program that stops checking its calls learns why nothing
// more happens.
void refuse_after_sticky_error(const LaunchRequest& request, cudaError_t error) {
  static bool said = false;
  set_pending_error(error);
  if (said) return;
  said = true;
  std::fprintf(stderr,
               "scanlab-sim: note: the kernel launched at %s did not run, nor will any later one: after %s a GPU "
               "runs no more kernels, and every later CUDA call returns that error until cudaDeviceReset\n",
               locate(Site{request.file, request.line}).text().c_str(), cudaGetErrorName(error));
}

}  // namespace

void launch(const LaunchRequest& request) {
  if (current_thread) refuse_launch_from_device(request);
  if (const cudaError_t stuck = sticky_error()) return refuse_after_sticky_error(request, stuck);
  if (!valid_launch_configuration(request)) return;
  if (request.cooperative && !cooperative_grid_fits(request)) return;
  std::lock_guard<std::mutex> lock(launch_mutex);
  fault_handler::install();
  print_findings_on_signal();
  const auto replay = launch_replay::begin(request);
  if (launch_replay::replayed(*replay)) {
    ++launch_counter;  // later launches draw the same schedules as when this one runs
    managed_memory::kernel_launched(Site{request.file, request.line}, request.stream);
    return;
  }

  Launch launch = describe(request, ++launch_counter);
  const Schedule s = schedule();
  const garbage_judgement::DeviceMemoryCopy before = garbage_judgement::DeviceMemoryCopy::take();
  memory_check::hold_shared_garbage_reads(true);
  run_launch(launch, s, false);
  judge_garbage_reads(request, launch, s, before);
  if (launch.error != cudaSuccess) set_pending_error(launch.error);
  launch_replay::finish(*replay, launch);
  managed_memory::kernel_launched(launch.site, request.stream);
}

}  // namespace scanlab::sim::detail
