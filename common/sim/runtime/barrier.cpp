// Block barriers with CUDA's rules. All live threads of a block must wait at the same
// __syncthreads (same call site, same kind) before any passes; threads that have exited count
// as arrived, as PTX defines, which is reported as a warning because CUDA C++ asks for
// barriers in uniform control flow.
#include <cstring>
#include <map>
#include <string>

#include "report.hpp"
#include "state.hpp"

namespace scanlab::sim::detail {
namespace {

const char* barrier_name(BarrierKind kind) {
  switch (kind) {
    case BarrierKind::sync: return "__syncthreads";
    case BarrierKind::count: return "__syncthreads_count";
    case BarrierKind::all: return "__syncthreads_and";
    case BarrierKind::any: return "__syncthreads_or";
  }
  return "__syncthreads";
}

bool same_site(Site a, Site b) {
  return a.line == b.line && (a.file == b.file || (a.file && b.file && std::strcmp(a.file, b.file) == 0));
}

std::string thread_range(const Block& b, unsigned first, unsigned last, unsigned count) {
  std::string s = format_index(b.threads[first].coords.thread_idx);
  if (count > 1) s += ".." + format_index(b.threads[last].coords.thread_idx);
  return s + " (" + std::to_string(count) + " thread" + (count == 1 ? "" : "s") + ")";
}

int wait_at_barrier(BarrierKind kind, int predicate, const char* file, unsigned line) {
  Thread* t = current_thread;
  if (!t) {
    Finding f;
    f.kind = ReportKind::unsupported;
    f.headline = std::string(barrier_name(kind)) + "() called from host code";
    f.parties.push_back(host_party("call", locate(Site{file, line})));
    report(f);
    return 0;
  }
  t->waiting = Waiting::barrier;
  t->barrier_site = Site{file, line};
  t->barrier_kind = kind;
  t->barrier_predicate = predicate != 0;
  t->block->at_barrier += 1;
  suspend(t);
  return t->barrier_result;
}

void report_divergence(Block& b) {
  Finding f;
  f.kind = ReportKind::barrier_divergence;
  f.headline = "barrier divergence: the threads of block " + format_index(b.index) +
               " wait at different barriers, so none can pass";
  // Group the waiting threads by call site, in thread order, for a readable summary.
  struct Group {
    Site site;
    BarrierKind kind;
    unsigned first, last, count;
  };
  std::vector<Group> groups;
  for (unsigned i = 0; i < b.thread_count; ++i) {
    const Thread& t = b.threads[i];
    if (t.exited) continue;
    Group* g = nullptr;
    for (Group& candidate : groups)
      if (same_site(candidate.site, t.barrier_site) && candidate.kind == t.barrier_kind) g = &candidate;
    if (!g) groups.push_back(Group{t.barrier_site, t.barrier_kind, i, i, 0}), g = &groups.back();
    g->last = i;
    g->count += 1;
  }
  for (const Group& g : groups) {
    f.parties.push_back(party(barrier_name(g.kind), &b.threads[g.first], locate(g.site)));
    f.details.push_back("threads " + thread_range(b, g.first, g.last, g.count) + " wait at " +
                        locate(g.site).text());
  }
  f.details.push_back("every thread of a block must reach the same __syncthreads() the same number of times: "
                      "keep barriers out of branches that depend on threadIdx");
  f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchFailure");
  report(f);
  b.launch->aborted = true;
  b.launch->error = cudaErrorLaunchFailure;
}

}  // namespace

void warn_barrier_after_exit(Block& b, const Thread& first) {
  if (!first_time(ReportKind::barrier_after_exit, reinterpret_cast<std::uintptr_t>(first.barrier_site.file),
                  first.barrier_site.line))
    return;
  Finding f;
  f.kind = ReportKind::barrier_after_exit;
  f.is_error = false;
  const unsigned exited = b.thread_count - b.live;
  f.headline = std::to_string(exited) + " thread" + (exited == 1 ? "" : "s") + " of block " + format_index(b.index) +
               " had exited before the other threads reached a barrier";
  f.parties.push_back(party(barrier_name(first.barrier_kind), &first, locate(first.barrier_site)));
  f.details.push_back("exited threads count as arrived (as on the GPU), so this runs correctly; CUDA C++ still "
                      "asks that all threads of a block reach every barrier, e.g. skip work with if (i < n) "
                      "instead of returning early");
  report(f);
}

void release_barrier(Block& b) {
  const Thread* first = nullptr;
  for (unsigned i = 0; i < b.thread_count && !first; ++i)
    if (!b.threads[i].exited) first = &b.threads[i];
  for (unsigned i = 0; i < b.thread_count; ++i) {
    const Thread& t = b.threads[i];
    if (!t.exited && (!same_site(t.barrier_site, first->barrier_site) || t.barrier_kind != first->barrier_kind)) {
      report_divergence(b);
      return;
    }
  }
  if (b.live < b.thread_count) warn_barrier_after_exit(b, *first);
  int count = 0;
  for (unsigned i = 0; i < b.thread_count; ++i)
    if (!b.threads[i].exited) count += b.threads[i].barrier_predicate;
  int result = 0;
  switch (first->barrier_kind) {
    case BarrierKind::sync: result = 0; break;
    case BarrierKind::count: result = count; break;
    case BarrierKind::all: result = count == static_cast<int>(b.live); break;
    case BarrierKind::any: result = count > 0; break;
  }
  b.last_barrier = first->barrier_site;
  b.interval += 1;
  b.at_barrier = 0;
  for (unsigned i = 0; i < b.thread_count; ++i) {
    Thread& t = b.threads[i];
    if (t.exited) continue;
    t.waiting = Waiting::no;
    t.barrier_result = result;
    b.runnable.push_back(&t);
  }
  b.progress = true;
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
  for (unsigned i = 0; i < b.thread_count; ++i) {
    const Thread& t = b.threads[i];
    if (t.exited) continue;
    if (t.waiting == Waiting::barrier && !at_barrier) at_barrier = &t;
    if (t.waiting == Waiting::warp && !at_warp) at_warp = &t;
  }
  if (at_barrier) f.parties.push_back(party(barrier_name(at_barrier->barrier_kind), at_barrier, locate(at_barrier->barrier_site)));
  if (at_warp) {
    const Warp& w = b.warps[at_warp->warp];
    for (const WarpGroup& g : w.pending)
      if (g.mask & (1u << at_warp->lane)) f.parties.push_back(party("warp intrinsic", at_warp, locate(g.site)));
  }
  f.details.push_back(std::to_string(b.at_barrier) + " threads wait at a barrier, " + std::to_string(b.at_warp) +
                      " in warp intrinsics");
  report(f);
  b.launch->aborted = true;
  b.launch->error = cudaErrorLaunchFailure;
}

}  // namespace scanlab::sim::detail

void __syncthreads(const char* file, unsigned line) {
  scanlab::sim::detail::wait_at_barrier(scanlab::sim::detail::BarrierKind::sync, 0, file, line);
}
int __syncthreads_count(int predicate, const char* file, unsigned line) {
  return scanlab::sim::detail::wait_at_barrier(scanlab::sim::detail::BarrierKind::count, predicate, file, line);
}
int __syncthreads_and(int predicate, const char* file, unsigned line) {
  return scanlab::sim::detail::wait_at_barrier(scanlab::sim::detail::BarrierKind::all, predicate, file, line);
}
int __syncthreads_or(int predicate, const char* file, unsigned line) {
  return scanlab::sim::detail::wait_at_barrier(scanlab::sim::detail::BarrierKind::any, predicate, file, line);
}
