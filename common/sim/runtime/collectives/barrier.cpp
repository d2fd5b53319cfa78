// All live threads of a block must wait at the same __syncthreads (same call site, same kind)
// before any passes. Threads that have exited count as arrived, as PTX defines, which is
// reported as a warning because CUDA C++ asks for barriers in uniform control flow.
#include "collectives/barrier.hpp"

#include "checks/barrier_names.hpp"
#include "checks/counters.hpp"
#include "checks/memory_order.hpp"
#include "checks/race_picture.hpp"
#include "checks/step_picture.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "collectives/async_barrier.hpp"
#include "collectives/tile_barrier.hpp"
#include "collectives/warp.hpp"
#include "findings/index_list.hpp"
#include "findings/report.hpp"
#include "threads/block.hpp"
#include "threads/scheduler.hpp"

namespace scanlab::sim::detail::barrier {
namespace {

const char* name_of(Kind kind) {
  switch (kind) {
    case Kind::sync: return "__syncthreads";
    case Kind::count: return "__syncthreads_count";
    case Kind::all: return "__syncthreads_and";
    case Kind::any: return "__syncthreads_or";
  }
  return "__syncthreads";
}

std::string thread_range(const Block& b, unsigned first, unsigned last, unsigned count) {
  std::string s = format_index(b.threads[first].coords.thread_idx);
  if (count > 1) s += ".." + format_index(b.threads[last].coords.thread_idx);
  return s + " (" + std::to_string(count) + " thread" + (count == 1 ? "" : "s") + ")";
}

void report_divergence(Block& b) {
  Finding f;
  f.kind = ReportKind::barrier_divergence;
  f.headline = "barrier divergence: the threads of block " + format_index(b.index) +
               " wait at different barriers, so none can pass";
  // Group the waiting threads by call site, in thread order, for a readable summary.
  struct Group {
    Site site;
    Kind kind;
    unsigned first, last, count;
  };
  std::vector<Group> groups;
  for (unsigned i = 0; i < b.thread_count; ++i) {
    const Thread& t = b.threads[i];
    if (t.exited) continue;
    Group* g = nullptr;
    for (Group& candidate : groups)
      if (same_site(candidate.site, t.barrier.site) && candidate.kind == t.barrier.kind) g = &candidate;
    if (!g) groups.push_back(Group{t.barrier.site, t.barrier.kind, i, i, 0}), g = &groups.back();
    g->last = i;
    g->count += 1;
  }
  for (const Group& g : groups) {
    f.parties.push_back(party(name_of(g.kind), &b.threads[g.first], locate(g.site)));
    f.details.push_back("threads " + thread_range(b, g.first, g.last, g.count) + " wait at " +
                        locate(g.site).text());
  }
  f.details.push_back("every thread of a block must reach the same __syncthreads() the same number of times: "
                      "keep barriers out of branches that depend on threadIdx");
  f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchFailure");
  report(f);
  scheduler::stop(b, cudaErrorLaunchFailure);
}

// Every live thread waits, but not all at a barrier: some lanes wait in a warp collective for
// lanes that are at a barrier (or the other way round). Neither can ever complete.
void report_stuck_block(Block& b) {
  Finding f;
  f.kind = ReportKind::deadlock;
  f.headline = "deadlock in block " + format_index(b.index) +
               ": some threads wait at a barrier while others wait in a warp intrinsic";
  const Thread* at_barrier = nullptr;
  const Thread* at_warp = nullptr;
  unsigned waiting_at_warp = 0;
  for (unsigned i = 0; i < b.thread_count; ++i) {
    const Thread& t = b.threads[i];
    if (t.exited) continue;
    if (t.waiting == Waiting::barrier && !at_barrier) at_barrier = &t;
    if (t.waiting == Waiting::warp) {
      if (!at_warp) at_warp = &t;
      waiting_at_warp += 1;
    }
  }
  if (at_barrier)
    f.parties.push_back(party(name_of(at_barrier->barrier.kind), at_barrier, locate(at_barrier->barrier.site)));
  if (at_warp) f.parties.push_back(party("warp intrinsic", at_warp, locate(*warp::waiting_site(*at_warp))));
  f.details.push_back(std::to_string(b.barrier.waiting) + " threads wait at a barrier, " +
                      std::to_string(waiting_at_warp) + " in warp intrinsics");
  report(f);
  scheduler::stop(b, cudaErrorLaunchFailure);
}

void warn_barrier_after_exit(Block& b, const Thread& first) {
  if (!first_time(ReportKind::barrier_after_exit, reinterpret_cast<std::uintptr_t>(first.barrier.site.file),
                  first.barrier.site.line))
    return;
  Finding f;
  f.kind = ReportKind::barrier_after_exit;
  f.is_error = false;
  const unsigned exited = b.thread_count - b.live;
  f.headline = std::to_string(exited) + " thread" + (exited == 1 ? "" : "s") + " of block " + format_index(b.index) +
               " had exited before the other threads reached a barrier";
  f.parties.push_back(party(name_of(first.barrier.kind), &first, locate(first.barrier.site)));
  f.details.push_back("exited threads count as arrived (as on the GPU), so this runs correctly; CUDA C++ still "
                      "asks that all threads of a block reach every barrier, e.g. skip work with if (i < n) "
                      "instead of returning early");
  report(f);
}

// A thread's arrival at a barrier, before it waits: null from host code (reported).
__attribute__((always_inline)) inline Thread* arrive(Kind kind, int predicate, const char* file, unsigned line) {
  Thread* t = current_thread;
  if (!t) {
    report_called_from_host(name_of(kind), Site{file, line});
    return nullptr;
  }
  t->barrier.site = Site{file, line};
  t->barrier.kind = kind;
  t->barrier.predicate = predicate != 0;
  BlockBarrier& at = t->block->barrier;
  if (at.waiting == 0) {
    at.site = t->barrier.site;
    at.kind = kind;
  } else if (!same_site(at.site, t->barrier.site) || at.kind != kind) {
    at.diverged = true;
  }
  at.predicates += t->barrier.predicate;
  at.waiting += 1;
  return t;
}

int arrive_and_wait(Kind kind, int predicate, const char* file, unsigned line) {
  Thread* t = arrive(kind, predicate, file, line);
  if (!t) return 0;
  scheduler::wait(t, Waiting::barrier);
  return t->barrier.result;
}

// Warps of one block, as a list a student reads ("warp 3", "warps 0-2 and 11-18"), written as
// reports write every set of lanes or warps (findings/index_list.hpp).
std::string warp_list(const std::vector<unsigned>& warps) { return named_index_list("warp", "warps", warps); }

}  // namespace

bool report_reached_by_some_warps(Block& b) {
  if (b.barrier.waiting == 0 || b.barrier.waiting >= b.live) return false;
  // The warps at the barrier, and where each other warp's threads are: a thread that polls a
  // barrier object waits for this block's own threads, so it never comes to the __syncthreads().
  std::vector<unsigned> there;
  std::vector<std::pair<std::string, std::vector<unsigned>>> elsewhere;  // place -> warps
  const Thread* waiting = nullptr;
  const Thread* away = nullptr;
  bool polls_block = false;
  for (unsigned w = 0; w * kWarpSize < b.thread_count; ++w) {
    const Thread* other = nullptr;
    bool any_there = false;
    for (unsigned i = w * kWarpSize; i < std::min(b.thread_count, (w + 1) * kWarpSize); ++i) {
      const Thread& t = b.threads[i];
      if (t.exited) continue;
      if (t.waiting == Waiting::barrier) {
        any_there = true;
        if (!waiting) waiting = &t;
      } else if (!other) {
        other = &t;
      }
    }
    if (any_there && !other) there.push_back(w);
    if (!other) continue;
    if (!away) away = other;
    polls_block |= async_barrier::polls_barrier_object(*other);
    const Site* collective = other->waiting == Waiting::warp ? warp::waiting_site(*other) : nullptr;
    const std::string place = collective ? locate(*collective).text() : barrier_names::place(other->last_yield_pc, "");
    auto it = std::find_if(elsewhere.begin(), elsewhere.end(), [&](const auto& e) { return e.first == place; });
    if (it == elsewhere.end()) elsewhere.push_back({place, {}}), it = elsewhere.end() - 1;
    it->second.push_back(w);
  }
  // Threads that spin on global memory may wait for another block and come to the barrier later
  // (a chained scan's thread 0): that is the deadlock's to tell.
  if (!waiting || !away || !polls_block || there.empty()) return false;
  if (!first_time(ReportKind::barrier_divergence, reinterpret_cast<std::uintptr_t>(waiting->barrier.site.file),
                  waiting->barrier.site.line))
    return true;
  const SourceLocation at = locate(waiting->barrier.site);
  Finding f;
  f.kind = ReportKind::barrier_divergence;
  f.headline = std::string(name_of(waiting->barrier.kind)) + "() at " + at.file + ":" + std::to_string(at.line) +
               " is reached by only some warps of block " + format_index(b.index) +
               ": the others run code that never comes to it";
  f.parties.push_back(party(name_of(waiting->barrier.kind), waiting, at));
  f.parties.push_back(party("elsewhere", away, locate(away->last_yield_pc)));
  f.details.push_back(warp_list(there) + (there.size() == 1 ? " waits at " : " wait at ") + at.text());
  constexpr std::size_t kShownPlaces = 4;
  for (std::size_t i = 0; i < elsewhere.size() && i < kShownPlaces; ++i)
    f.details.push_back(warp_list(elsewhere[i].second) + (elsewhere[i].second.size() == 1 ? " waits at " : " wait at ") +
                        elsewhere[i].first + " for this block's own threads, and never comes to the barrier");
  if (elsewhere.size() > kShownPlaces)
    f.details.push_back("and warps at " + std::to_string(elsewhere.size() - kShownPlaces) + " more places");
  f.fix = "a __syncthreads() must be reached by every thread of the block, and this one lies in code that only some "
          "warps run (one role of a warp-specialized kernel, or a block-wide function called inside a branch): order "
          "what these warps share with their own sync (__syncwarp(), or the sync() of a tile that holds them) or with "
          "a cuda::barrier that exactly they arrive on, or move the barrier to where every warp of the block comes";
  f.fix_scope = FixScope::none;
  report(f);
  return true;
}

// The plain barrier returns nothing, so its wait is a tail call: a suspended thread's stack holds
// no frame of the barrier's, which is a cache line less for every switch back to it.
void sync(const char* file, unsigned line) {
  if (Thread* t = arrive(Kind::sync, 0, file, line)) scheduler::wait(t, Waiting::barrier);
}

void begin_block(Block& b) {
  b.barrier = BlockBarrier{};
  if (__builtin_expect(step_picture::recording.load(std::memory_order_relaxed), false)) step_picture::begin_block(b);
}

void end_block(Block& b) {
  if (__builtin_expect(step_picture::recording.load(std::memory_order_relaxed), false)) step_picture::end_block(b);
}

void release(Block& b) {
  if (b.barrier.waiting != b.live) {
    // Lanes that wait in coalesced_threads() for lanes that cannot come form their group now.
    if (warp::form_coalesced_groups(b)) return;
    if (warp::report_mismatched_collectives(b)) return;
    if (warp::report_lanes_at_a_barrier(b)) return;
    if (tile_barrier::report_stuck(b)) return;
    report_stuck_block(b);
    return;
  }
  if (b.barrier.diverged) {
    report_divergence(b);
    return;
  }
  if (b.live < b.thread_count) {
    const Thread* first = nullptr;
    for (unsigned i = 0; i < b.thread_count && !first; ++i)
      if (!b.threads[i].exited) first = &b.threads[i];
    warn_barrier_after_exit(b, *first);
  }
  const int count = b.barrier.predicates;
  int result = 0;
  switch (b.barrier.kind) {
    case Kind::sync: result = 0; break;
    case Kind::count: result = count; break;
    case Kind::all: result = count == static_cast<int>(b.live); break;
    case Kind::any: result = count > 0; break;
  }
  counters::end_interval(b);  // before any thread runs on into the next interval
  memory_order::end_interval(b);
  b.barrier.last = b.barrier.site;
  b.barrier.interval += 1;
  // A picture asked for draws this barrier even where its interval touches nothing drawn.
  if (__builtin_expect(race_picture::recording.load(std::memory_order_relaxed), false)) race_picture::barrier_crossed(b);
  // A picture of steps copies the followed block's array as each step ends.
  if (__builtin_expect(step_picture::recording.load(std::memory_order_relaxed), false)) step_picture::barrier_crossed(b);
  b.barrier.waiting = 0;
  b.barrier.predicates = 0;
  for (unsigned i = 0; i < b.thread_count; ++i) {
    // Each Thread is several cache lines from the next, too far apart for the hardware to fetch
    // ahead; in a block of 1024 threads, a round since this loop last ran has evicted most of them.
    if (i + 8 < b.thread_count) __builtin_prefetch(&b.threads[i + 8], 1);
    Thread& t = b.threads[i];
    if (t.exited) continue;
    t.barrier.result = result;
    scheduler::wake(b, t);
  }
  b.progress = true;
}

}  // namespace scanlab::sim::detail::barrier

using scanlab::sim::detail::barrier::arrive_and_wait;
using scanlab::sim::detail::barrier::Kind;

void __syncthreads(const char* file, unsigned line) { scanlab::sim::detail::barrier::sync(file, line); }
int __syncthreads_count(int predicate, const char* file, unsigned line) {
  return arrive_and_wait(Kind::count, predicate, file, line);
}
int __syncthreads_and(int predicate, const char* file, unsigned line) {
  return arrive_and_wait(Kind::all, predicate, file, line);
}
int __syncthreads_or(int predicate, const char* file, unsigned line) {
  return arrive_and_wait(Kind::any, predicate, file, line);
}
