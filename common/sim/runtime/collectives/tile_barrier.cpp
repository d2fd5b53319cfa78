// The members of a tile of several warps each arrive and wait; the last one to arrive computes
// everyone's result and wakes the others. A rendezvous that a member can never reach is found
// when the whole block waits (barrier::release asks report_stuck), or when the member exits.
#include "collectives/tile_barrier.hpp"

#include <algorithm>
#include <string>

#include "checks/race_detector.hpp"
#include "collectives/warp.hpp"
#include "findings/report.hpp"
#include "threads/block.hpp"
#include "threads/scheduler.hpp"

namespace scanlab::sim::detail::tile_barrier {
namespace {

std::string tile_text(const Block& b, const Rendezvous& r) {
  const std::string last = format_index(b.threads[r.first + r.members - 1].coords.thread_idx);
  return "the tile of " + std::to_string(r.size) + " threads " + format_index(b.threads[r.first].coords.thread_idx) +
         ".." + last + " of block " + format_index(b.index);
}

// A member that waits in the rendezvous at `place` (BlockTiles::pending), for reports.
const Thread* waiting_member(const Block& b, const Rendezvous& r, std::size_t place) {
  for (unsigned i = r.first; i < r.first + r.members; ++i)
    if (b.tiles.threads[i].pending == place + 1) return &b.threads[i];
  return &b.threads[r.first];
}

[[noreturn]] void stop_kernel(Thread* t, const Finding& f) {
  report(f);
  scheduler::abort_kernel(t, cudaErrorLaunchFailure);
}

// Where a member that has not come to a rendezvous is instead, for a report: its wait's role and site.
struct Whereabouts {
  std::string role;
  Site site;
  std::string text;
};
Whereabouts whereabouts(const Block& b, const Thread& t) {
  if (t.exited) return {"exit", Site{}, "had exited"};
  if (t.waiting == Waiting::barrier) return {"__syncthreads", t.barrier.site, "waits at a barrier of the block"};
  if (b.tiles.threads[t.linear].pending != 0) {
    const Rendezvous& other = b.tiles.pending[b.tiles.threads[t.linear].pending - 1];
    return {other.name, other.site, std::string("waits in ") + other.name + " of its tile of " +
                                        std::to_string(other.size) + " threads"};
  }
  if (const Site* s = warp::waiting_site(t)) return {"warp intrinsic", *s, "waits in a warp intrinsic"};
  return {"running", Site{}, "is elsewhere"};
}

Finding missing_finding(const Block& b, const Rendezvous& r, const Thread* waiting, const Thread& missing) {
  Finding f;
  f.kind = ReportKind::barrier_divergence;
  const Whereabouts w = whereabouts(b, missing);
  std::string where = "thread " + format_index(missing.coords.thread_idx) + " " + w.text;
  if (w.site.file) where += " at " + locate(w.site).text();
  f.headline = std::string("barrier divergence: ") + r.name + " of " + tile_text(b, r) + " can never complete: " + where;
  f.parties.push_back(party(r.name, waiting, locate(r.site)));
  if (w.site.file) f.parties.push_back(party(w.role.c_str(), &missing, locate(w.site)));
  f.details.push_back(std::to_string(r.arrived) + " of the tile's " + std::to_string(r.members) + " threads wait at " +
                      locate(r.site).text());
  f.details.push_back("every thread of a tile must reach the same sync() (and shfl, any, all, reduce, scan) of the "
                      "tile: keep them out of branches that depend on the thread, and return only after them");
  f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchFailure");
  return f;
}

void report_missing(Block& b, std::size_t place, const Thread& missing) {
  const Rendezvous& r = b.tiles.pending[place];
  report(missing_finding(b, r, waiting_member(b, r, place), missing));
  scheduler::stop(b, cudaErrorLaunchFailure);
}

// Every member came, but not all to the same call (or a shuffle's members asked for different ranks).
[[noreturn]] void report_disagreement(Thread* last, const Rendezvous& r, std::size_t place) {
  const Block& b = *last->block;
  const Thread& odd = b.threads[r.odd_thread];
  Finding f;
  if (r.diverged) {
    f.kind = ReportKind::barrier_divergence;
    f.headline = "barrier divergence: the threads of " + tile_text(b, r) +
                 " reach different calls of the tile's collectives, so none can pass";
    f.parties.push_back(party(r.name, waiting_member(b, r, place), locate(r.site)));
    f.parties.push_back(party(r.odd_name, &odd, locate(r.odd_site)));
    f.details.push_back("every thread of a tile must reach the same sync() (or collective) the same number of times");
  } else {
    f.kind = ReportKind::warp_mask;
    f.headline = std::string("invalid ") + r.name + ": the threads of " + tile_text(b, r) +
                 " read different source ranks (" + std::to_string(r.source) + " and " +
                 std::to_string(b.tiles.threads[odd.linear].argument) + ")";
    f.parties.push_back(party(r.name, &odd, locate(r.site)));
    f.details.push_back("in a tile of more than 32 threads every thread must pass the same source rank to shfl "
                        "(CUDA leaves anything else undefined)");
  }
  f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchFailure");
  stop_kernel(last, f);
}

// The last member has arrived: every member's result, the race detector's ordering, and the wake-up.
void complete(Block& b, std::size_t index, Thread* last) {
  const Rendezvous r = b.tiles.pending[index];
  if (r.diverged || r.sources_differ) report_disagreement(last, r, index);
  Thread* members = &b.threads[r.first];
  Arrival* arrivals = &b.tiles.threads[r.first];
  std::uint64_t result = 0;
  switch (r.kind) {
    case Kind::sync: race_detector::join_warps(b, r.first / kWarpSize, (r.members + kWarpSize - 1) / kWarpSize); break;
    case Kind::any:
    case Kind::all: {
      unsigned votes = 0;
      for (unsigned i = 0; i < r.members; ++i) votes += arrivals[i].value != 0;
      result = r.kind == Kind::any ? votes != 0 : votes == r.members;
      break;
    }
    case Kind::shfl: result = arrivals[std::min(r.source, r.members - 1)].value; break;
  }
  // Later rendezvous keep their place numbers: a member's `pending` names its rendezvous by place.
  b.tiles.pending[index].members = 0;
  while (!b.tiles.pending.empty() && b.tiles.pending.back().members == 0) b.tiles.pending.pop_back();
  for (unsigned i = 0; i < r.members; ++i) {
    arrivals[i].result = result;
    arrivals[i].pending = 0;
    if (&members[i] != last) scheduler::wake(b, members[i]);
  }
  b.progress = true;
}

// Opens the caller's tile's rendezvous; a member that has already exited can never come.
std::size_t open(Block& b, Thread* t, unsigned first, unsigned size, Kind kind, unsigned argument, const char* name,
                 Site site) {
  Rendezvous r;
  r.first = first;
  r.size = size;
  r.members = std::min(size, b.thread_count - first);
  r.kind = kind;
  r.name = name;
  r.site = site;
  r.source = argument;
  for (unsigned i = first; i < first + r.members; ++i)
    if (b.threads[i].exited) {
      stop_kernel(t, missing_finding(b, r, t, b.threads[i]));
    }
  for (std::size_t k = 0; k < b.tiles.pending.size(); ++k)
    if (b.tiles.pending[k].members == 0) {
      b.tiles.pending[k] = r;
      return k;
    }
  b.tiles.pending.push_back(r);
  return b.tiles.pending.size() - 1;
}

}  // namespace

void begin_block(Block& b) {
  b.tiles.pending.clear();
  if (!b.tiles.threads.empty()) b.tiles.threads.assign(b.thread_count, Arrival{});
}

std::uint64_t collective(Kind kind, unsigned size, std::uint64_t value, unsigned argument, const char* name,
                         Site site) {
  Thread* t = current_thread;
  if (!t) {
    report_called_from_host(name, site);
    return value;
  }
  Block& b = *t->block;
  if (b.tiles.threads.empty()) b.tiles.threads.resize(b.thread_count);
  Arrival& mine = b.tiles.threads[t->linear];
  const unsigned first = t->linear / size * size;
  std::size_t index = b.tiles.pending.size();
  for (std::size_t k = 0; k < b.tiles.pending.size(); ++k)
    if (b.tiles.pending[k].members != 0 && b.tiles.pending[k].first == first && b.tiles.pending[k].size == size)
      index = k;
  if (index == b.tiles.pending.size()) index = open(b, t, first, size, kind, argument, name, site);
  Rendezvous& r = b.tiles.pending[index];
  const bool other_call = r.kind != kind || !same_site(r.site, site);
  const bool other_source = !other_call && kind == Kind::shfl && argument != r.source;
  if ((other_call && !r.diverged) || (other_source && !r.sources_differ && !r.diverged)) {
    r.diverged = other_call;
    r.sources_differ = other_source;
    r.odd_thread = t->linear;
    r.odd_name = name;
    r.odd_site = site;
  }
  mine.value = value;
  mine.argument = argument;
  r.arrived += 1;
  if (r.arrived == r.members) {
    complete(b, index, t);
    return mine.result;
  }
  mine.pending = static_cast<std::uint32_t>(index + 1);
  scheduler::wait(t, Waiting::warp);
  return b.tiles.threads[t->linear].result;
}

bool report_stuck(Block& b) {
  for (std::size_t place = 0; place < b.tiles.pending.size(); ++place) {
    const Rendezvous& r = b.tiles.pending[place];
    if (r.members == 0) continue;
    for (unsigned i = r.first; i < r.first + r.members; ++i)
      if (b.tiles.threads[i].pending != place + 1) {
        report_missing(b, place, b.threads[i]);
        return true;
      }
  }
  return false;
}

void thread_exited(Thread& t) {
  Block& b = *t.block;
  for (std::size_t place = 0; place < b.tiles.pending.size(); ++place) {
    const Rendezvous& r = b.tiles.pending[place];
    if (r.members != 0 && t.linear >= r.first && t.linear < r.first + r.members) {
      report_missing(b, place, t);
      return;
    }
  }
}

}  // namespace scanlab::sim::detail::tile_barrier
