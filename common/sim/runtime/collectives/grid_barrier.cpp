// A grid barrier is a block barrier, then one thread of each block arriving on the grid's
// counter and waiting for the last arrival, then a block barrier again. The arrivals and the
// waits are operations other blocks see, so they run in the serial phase, block after block in
// slot order: the barrier completes at the same point whatever the number of OS threads. When the
// last block arrives, every other block waits in it (all its threads suspended), so the checks'
// records of global memory can be set aside there.
#include "collectives/grid_barrier.hpp"

#include <atomic>
#include <string>

#include "checks/memory_order.hpp"
#include "findings/report.hpp"
#include "memory/race_shadow.hpp"
#include "scanlab/sim/cuda/barriers.hpp"
#include "threads/scheduler.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::grid_barrier {
namespace {

// One launch runs at a time; its barrier's state.
struct GridBarrier {
  const Launch* launch = nullptr;
  bool cooperative = false;
  unsigned blocks = 0;
  unsigned arrived = 0;   // blocks waiting in the current barrier
  std::atomic<unsigned> finished{0};  // blocks that finished the kernel (counted in parallel phases)
  unsigned generation = 0;  // barriers completed
  Site waiting_site;  // of the barrier the blocks wait in
  bool reported = false;  // that it can never complete
};
GridBarrier grid;

[[noreturn]] void refuse_outside_cooperative_launch(Thread* t, Site site) {
  Finding f;
  f.kind = ReportKind::invalid_launch;
  f.headline = "grid_group::sync() in a kernel not launched with cudaLaunchCooperativeKernel: a GPU holds no "
               "promise that the grid's blocks run at once, and the grid group is not valid";
  f.parties.push_back(party("grid_group::sync", t, locate(site)));
  f.details.push_back("launch the kernel with cudaLaunchCooperativeKernel (or cudaLaunchKernelEx with "
                      "cudaLaunchAttributeCooperative), or split it into one launch per phase");
  f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchFailure");
  report(f);
  scheduler::abort_kernel(t, cudaErrorLaunchFailure);
}

// Every block that has not finished waits in the barrier, and some have finished: it can never
// complete.
void report_unreachable(Block& waiting) {
  Finding f;
  f.kind = ReportKind::barrier_divergence;
  const unsigned gone = grid.finished.load(std::memory_order_relaxed);
  f.headline = "grid_group::sync(): " + std::to_string(gone) + " block" + (gone == 1 ? "" : "s") +
               " of the grid exited without reaching it, so the blocks that wait in it can never pass";
  const Thread* t = nullptr;
  for (unsigned i = 0; i < waiting.thread_count && !t; ++i)
    if (!waiting.threads[i].exited) t = &waiting.threads[i];
  if (t) f.parties.push_back(party("grid_group::sync", t, locate(grid.waiting_site)));
  f.details.push_back(std::to_string(grid.arrived) + " blocks wait at " + locate(grid.waiting_site).text());
  f.details.push_back("every thread of the grid must reach every grid.sync(): keep it out of branches and loops "
                      "that depend on blockIdx or threadIdx, and return only after the last one");
  f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchFailure");
  report(f);
}

// Said once, by the first waiting thread to see it in the serial phase; the kernel stops.
[[noreturn]] void give_up(Thread* waiting) {
  if (!grid.reported) {
    grid.reported = true;
    report_unreachable(*waiting->block);
  }
  scheduler::abort_kernel(waiting, cudaErrorLaunchFailure);
}

// The last arrival: what every thread did before is ordered before what any does after.
void complete() {
  race_detector::begin_launch_shadow(grid.launch->id);  // global memory's records so far count as an earlier launch's
  memory_order::begin_launch(*grid.launch);
  grid.arrived = 0;
  grid.generation += 1;
}

// The block's first live thread arrives for it, after the block barrier.
void arrive_and_wait(Thread* t, Site site, std::uintptr_t pc) {
  Block& b = *t->block;
  const std::uintptr_t word = reinterpret_cast<std::uintptr_t>(&grid.generation);
  scheduler::cross_block(t, pc, word, true);
  b.progress = true;
  const unsigned generation = grid.generation;
  if (grid.arrived++ == 0) grid.waiting_site = site;
  const auto stuck = [] { return grid.arrived + grid.finished.load(std::memory_order_relaxed) == grid.blocks; };
  if (stuck()) {
    if (grid.finished.load(std::memory_order_relaxed) != 0) give_up(t);
    complete();
    return;
  }
  while (grid.generation == generation) {
    scheduler::cross_block(t, pc, word, false);
    if (grid.generation == generation && stuck()) give_up(t);
  }
}

}  // namespace

void begin_launch(const Launch& launch) {
  grid.launch = &launch;
  grid.arrived = 0;
  grid.finished.store(0, std::memory_order_relaxed);
  grid.generation = 0;
  grid.reported = false;
  grid.cooperative = launch.cooperative;
  grid.blocks = launch.block_count;
}

void end_block(Block& b) {
  if (!grid.cooperative || !b.finished) return;
  grid.finished.fetch_add(1, std::memory_order_relaxed);  // a waiting block finds the barrier stuck
}

void sync(Site site, std::uintptr_t pc) {
  Thread* t = current_thread;
  if (!t) {
    report_called_from_host("grid_group::sync", site);
    return;
  }
  if (!grid.cooperative) refuse_outside_cooperative_launch(t, site);
  __syncthreads(site.file, site.line);
  const Block& b = *t->block;
  const Thread* first_live = nullptr;
  for (unsigned i = 0; i < b.thread_count && !first_live; ++i)
    if (!b.threads[i].exited) first_live = &b.threads[i];
  if (first_live == t) arrive_and_wait(t, site, pc);
  __syncthreads(site.file, site.line);
}

}  // namespace scanlab::sim::detail::grid_barrier
