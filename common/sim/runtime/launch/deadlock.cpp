#include "launch/deadlock.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "base/settings.hpp"
#include "collectives/async_barrier.hpp"
#include "collectives/barrier.hpp"
#include "findings/report.hpp"
#include "memory/global_memory.hpp"
#include "threads/shared_memory.hpp"

namespace scanlab::sim::detail::deadlock {
namespace {

std::string block_list(const std::vector<unsigned>& blocks, const Launch& launch) {
  std::string s;
  const std::size_t shown = std::min<std::size_t>(blocks.size(), 8);
  for (std::size_t i = 0; i < shown; ++i) s += (i ? " " : "") + format_index(unflatten(blocks[i], launch.grid));
  if (blocks.size() > shown) s += " and " + std::to_string(blocks.size() - shown) + " more";
  return s;
}

// The buffer a global address is in (its start), or 0.
std::uintptr_t buffer_of(std::uintptr_t a) {
  for (const global_memory::Buffer& b : global_memory::live_buffers())
    if (a >= b.begin && a < b.begin + b.bytes) return b.begin;
  return 0;
}

// Bytes from one block's polled word to the next block's, where the waiting blocks that poll one
// buffer agree on it (block b polls begin + (b - k) * stride for one k): 0 where fewer than two
// do, or they disagree.
std::size_t word_stride(const std::map<unsigned, std::uintptr_t>& polled) {
  std::size_t stride = 0;
  const std::pair<const unsigned, std::uintptr_t>* first = nullptr;
  for (const auto& entry : polled) {
    if (!first) {
      first = &entry;
      continue;
    }
    if (buffer_of(entry.second) != buffer_of(first->second) || entry.second <= first->second) return 0;
    const std::size_t bytes = entry.second - first->second, blocks = entry.first - first->first;
    if (bytes % blocks) return 0;
    if (stride && stride != bytes / blocks) return 0;
    stride = bytes / blocks;
  }
  return stride;
}

}  // namespace

// Built from what the report already holds, so it is always recorded. A spin on a word read with
// plain loads names the word (Thread::poll); two or more such blocks polling one buffer show how
// words follow blocks, and so which block each waits for.
WaitPicture wait_picture(const Launch& launch, const std::vector<Block*>& resident, const std::vector<unsigned>& waiting) {
  constexpr unsigned kPictureBlocks = 32;
  WaitPicture p;
  p.grid_blocks = launch.block_count;
  p.resident = static_cast<unsigned>(resident.size());
  p.block_order = block_order_name(schedule().block_order);
  const std::set<unsigned> not_started(waiting.begin(), waiting.end());
  std::map<unsigned, const Block*> running;
  for (const Block* b : resident) running[b->linear] = b;
  std::map<unsigned, std::uintptr_t> polled;  // waiting block -> the global word its spin polls
  for (const auto& [linear, b] : running)
    if (const Thread* t = spinning_thread(*b); t && t->poll.address && buffer_of(t->poll.address))
      polled[linear] = t->poll.address;
  p.word_bytes = word_stride(polled);
  // The window: the running blocks and two on either side (what a block waits for is usually
  // just below it), at most kPictureBlocks, the highest kept.
  unsigned lo = running.empty() ? 0 : running.begin()->first, hi = running.empty() ? 0 : running.rbegin()->first;
  lo = lo > 2 ? lo - 2 : 0;
  hi = std::min(hi + 2, launch.block_count - 1);
  if (hi - lo + 1 > kPictureBlocks) lo = hi + 1 - kPictureBlocks;
  std::map<std::uintptr_t, SourceLocation> located;  // addr2line once per spin
  for (unsigned linear = 0; linear < launch.block_count; ++linear) {
    const bool started = !not_started.count(linear);
    if (linear < lo || linear > hi) {
      if (!started) ++p.not_started_not_shown;
      else if (!running.count(linear)) ++p.finished_not_shown;
      continue;  // a running block is inside the window, unless more run at once than it holds
    }
    WaitBlock w;
    w.linear = linear;
    const uint3 index = unflatten(linear, launch.grid);
    w.index[0] = index.x, w.index[1] = index.y, w.index[2] = index.z;
    const auto it = running.find(linear);
    if (!started) {
      w.state = "not started";
    } else if (it == running.end()) {
      w.state = "finished";
    } else if (const Thread* t = spinning_thread(*it->second)) {
      w.state = "waiting";
      w.thread = t->linear;
      auto [place, fresh] = located.try_emplace(t->last_yield_pc);
      if (fresh) place->second = locate(t->last_yield_pc);
      w.where = place->second;
      if (t->poll.address) {
        w.word = shared_memory::describe_address(t->poll.address, *it->second);
        w.seen = t->poll.value;
        if (p.word_bytes && polled.count(linear)) {
          // Word k is tile k's; the waiting blocks number tiles by blockIdx (else they could not
          // wait for a block that has not started), so tile k is block k.
          const std::uintptr_t begin = buffer_of(t->poll.address);
          w.waits_for = static_cast<long>((t->poll.address - begin) / p.word_bytes);
        }
      }
    } else {
      w.state = "at a barrier";
    }
    p.blocks.push_back(std::move(w));
  }
  // A spin through a volatile or atomic load leaves no word on the thread. Where a block that has
  // not started lies below a waiting one (blocks started out of blockIdx order), each waiting
  // block is taken to wait for the nearest earlier block that has not finished, as a chain or a
  // look-back by blockIdx does; the record says that this is read from the order, not a word.
  const bool hole_below = !not_started.empty() && !running.empty() && *not_started.begin() < running.rbegin()->first;
  for (WaitBlock& w : p.blocks) {
    if (w.state != "waiting" || w.waits_for >= 0 || !hole_below) continue;
    for (long k = static_cast<long>(w.linear) - 1; k >= 0; --k) {
      const auto u = static_cast<unsigned>(k);
      if (not_started.count(u) || running.count(u)) {
        w.waits_for = k;
        w.waits_for_by_order = true;
        break;
      }
    }
  }
  return p;
}

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
  // What some warps of a block wait for that others never reach (a __syncthreads() in one role's
  // code, a shuffle inside a condition): the cause, told first at its own line.
  for (Block* b : resident) barrier::report_reached_by_some_warps(*b);
  // A few spinning threads, one per place they spin at first: the blocks of a kernel mostly
  // spin alike, and a line per block buries what differs.
  constexpr std::size_t kSpinners = 3, kBarrierLines = 4;
  std::set<std::uintptr_t> spin_places;
  std::set<const Block*> named;
  for (int pass = 0; pass < 2; ++pass)
    for (Block* b : resident)
      if (const Thread* t = spinning_thread(*b);
          t && f.parties.size() < kSpinners && !named.count(b) && (pass == 1 || spin_places.insert(t->last_yield_pc).second)) {
        f.parties.push_back(party("spinning", t, locate(t->last_yield_pc)));
        named.insert(b);
      }
  // Threads that poll a barrier object whose phase cannot complete: which barrier, and what it lacks.
  for (std::string& line : async_barrier::describe_waiting(resident, kBarrierLines)) f.details.push_back(std::move(line));
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
  f.wait_picture = wait_picture(launch, resident, waiting);
  report(f);
  launch.aborted = true;
  launch.error = cudaErrorLaunchTimeout;
}

}  // namespace scanlab::sim::detail::deadlock
