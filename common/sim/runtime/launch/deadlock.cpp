#include "launch/deadlock.hpp"

#include <algorithm>
#include <string>

#include "base/settings.hpp"
#include "collectives/async_barrier.hpp"
#include "findings/report.hpp"

namespace scanlab::sim::detail::deadlock {
namespace {

std::string block_list(const std::vector<unsigned>& blocks, const Launch& launch) {
  std::string s;
  const std::size_t shown = std::min<std::size_t>(blocks.size(), 8);
  for (std::size_t i = 0; i < shown; ++i) s += (i ? " " : "") + format_index(unflatten(blocks[i], launch.grid));
  if (blocks.size() > shown) s += " and " + std::to_string(blocks.size() - shown) + " more";
  return s;
}

}  // namespace

const Thread* spinning_thread(const Block& b) {
  for (unsigned i = 0; i < b.thread_count; ++i) {
    const Thread& t = b.threads[i];
    if (!t.exited && t.waiting != Waiting::barrier && t.waiting != Waiting::warp) return &t;
  }
  return nullptr;
}

void report(Launch& launch, const std::vector<Block*>& resident, const std::vector<unsigned>& waiting,
            const coresidency::GridFit* fit) {
  Finding f;
  f.kind = ReportKind::deadlock;
  f.headline = "deadlock: none of the " + std::to_string(resident.size()) +
               " running blocks can make progress (the kernel would hang on a GPU)";
  for (Block* b : resident) {
    if (f.parties.size() >= 8) break;
    if (const Thread* t = spinning_thread(*b)) f.parties.push_back(party("spinning", t, locate(t->last_yield_pc)));
  }
  // Threads that poll a barrier object whose phase cannot complete: which barrier, and what it lacks.
  for (Block* b : resident)
    for (std::string& line : async_barrier::describe_waiting(*b)) f.details.push_back(std::move(line));
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

}  // namespace scanlab::sim::detail::deadlock
