// The lanes named in a collective's mask each arrive and wait; the last one to arrive computes
// everyone's result.
#include "collectives/warp.hpp"

#include "checks/counters.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "checks/race_detector.hpp"
#include "findings/index_list.hpp"
#include "findings/report.hpp"
#include "threads/block.hpp"
#include "threads/scheduler.hpp"

namespace scanlab::sim::detail::warp {
namespace {

const char* collective_name(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::syncwarp: return "__syncwarp";
    case CollectiveKind::ballot: return "__ballot_sync";
    case CollectiveKind::any: return "__any_sync";
    case CollectiveKind::all: return "__all_sync";
    case CollectiveKind::shfl_index: return "__shfl_sync";
    case CollectiveKind::shfl_up: return "__shfl_up_sync";
    case CollectiveKind::shfl_down: return "__shfl_down_sync";
    case CollectiveKind::shfl_xor: return "__shfl_xor_sync";
    case CollectiveKind::match_any: return "__match_any_sync";
    case CollectiveKind::match_all: return "__match_all_sync";
    case CollectiveKind::coalesce: return "coalesced_threads";
  }
  return "warp intrinsic";
}

std::string hex(unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

// "lane 3", "lanes 0-3" or "lanes 0, 2 and 5": the lanes of a mask with the word that goes with
// their number (findings/index_list.hpp), and the verb's form that goes with them.
std::string lanes_named(unsigned lanes) { return lanes_of_mask(lanes); }
const char* verb_for(unsigned lanes, const char* one, const char* several) {
  return __builtin_popcount(lanes) == 1 ? one : several;
}

const char* name_of(const Group& g) { return g.name ? g.name : collective_name(g.kind); }

// The fix of a collective that fewer lanes call than its mask names: the lanes the mask names
// must all make the call. A mask narrowed to the lanes that happen to be there (__activemask())
// would hide the report and leave the others' values out.
constexpr const char* kEveryLaneOfTheMask =
    "call it outside the condition, with every lane of the mask: let every lane the mask names make the call (the "
    "lanes that need its result can use it inside the condition)";

// A collective whose mask names lanes that will never all make the call (they exited, wait
// elsewhere, or call another one): reported with the fix, and the launch stops.
void stop_for_mask(Block& b, Finding& f) {
  f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchFailure");
  f.fix = kEveryLaneOfTheMask;
  report(f);
  scheduler::stop(b, cudaErrorLaunchFailure);
}

[[noreturn]] void mask_error(Thread* t, const char* name, Site site, const std::string& problem,
                             const char* fix = nullptr) {
  Finding f;
  f.kind = ReportKind::warp_mask;
  f.headline = std::string("invalid ") + name + ": " + problem;
  f.parties.push_back(party(name, t, locate(site)));
  f.details.push_back("the mask must name exactly the lanes that execute this call, the caller included");
  f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchFailure");
  if (fix) f.fix = fix;
  report(f);
  scheduler::abort_kernel(t, cudaErrorLaunchFailure);
}

// Computes every lane's result and wakes the lanes that wait; `caller` (the last to arrive, or
// null when the block formed a coalesced group) runs on without waking.
void complete(Block& b, Group g, unsigned warp_index, Thread* caller) {
  Thread* lanes = &b.threads[warp_index * kWarpSize];
  const unsigned mask = g.mask;
  auto each = [&](auto&& f) {
    for (unsigned l = 0; l < kWarpSize; ++l)
      if (mask & (1u << l)) f(lanes[l], l);
  };
  switch (g.kind) {
    case CollectiveKind::syncwarp: race_detector::join_lanes(lanes, mask); break;
    case CollectiveKind::ballot:
    case CollectiveKind::any:
    case CollectiveKind::all: {
      unsigned votes = 0;
      each([&](Thread& t, unsigned l) { votes |= t.collective.value ? (1u << l) : 0u; });
      const std::uint64_t result = g.kind == CollectiveKind::ballot ? votes
                                   : g.kind == CollectiveKind::any  ? (votes != 0)
                                                                    : (votes == mask);
      each([&](Thread& t, unsigned) { t.collective.result = result; });
      break;
    }
    case CollectiveKind::match_any:
    case CollectiveKind::match_all: {
      bool all_equal = true;
      each([&](Thread& t, unsigned) {
        unsigned same = 0;
        each([&](Thread& other, unsigned o) { same |= other.collective.value == t.collective.value ? (1u << o) : 0u; });
        t.collective.result = same;
        all_equal = all_equal && same == mask;
      });
      if (g.kind == CollectiveKind::match_all)
        each([&](Thread& t, unsigned) { t.collective.result = all_equal ? mask : 0u; });
      break;
    }
    case CollectiveKind::coalesce: each([&](Thread& t, unsigned) { t.collective.result = mask; }); break;
    default: {
      const unsigned width = static_cast<unsigned>(g.width);
      std::array<std::uint64_t, kWarpSize> result{};
      each([&](Thread& t, unsigned l) {
        const unsigned segment = l & ~(width - 1);
        const int arg = g.lane_argument[l];
        unsigned source = l;
        switch (g.kind) {
          case CollectiveKind::shfl_index: source = segment + (static_cast<unsigned>(arg) & (width - 1)); break;
          case CollectiveKind::shfl_up:
            source = (static_cast<int>(l) - arg >= static_cast<int>(segment)) ? l - arg : l;
            break;
          case CollectiveKind::shfl_down: source = (l + arg < segment + width) ? l + arg : l; break;
          case CollectiveKind::shfl_xor: {
            const unsigned x = l ^ static_cast<unsigned>(arg);
            source = (x < segment + width && x < kWarpSize) ? x : l;
            break;
          }
          default: break;
        }
        if (!(mask & (1u << source)))
          mask_error(&t, name_of(g), g.site,
                     "lane " + std::to_string(l) + " reads lane " + std::to_string(source) +
                         ", which is not in the mask " + hex(mask) + " (its value is undefined)");
        result[l] = lanes[source].collective.value;
      });
      each([&](Thread& t, unsigned l) { t.collective.result = result[l]; });
      break;
    }
  }
  each([&](Thread& t, unsigned) {
    if (&t != caller && t.waiting == Waiting::warp) scheduler::wake(b, t);
  });
  b.progress = true;
}

Thread* calling_thread(const char* name, Site site) {
  Thread* t = current_thread;
  if (!t) report_called_from_host(name, site);
  return t;
}

std::uint64_t vote(CollectiveKind kind, unsigned mask, int predicate, const char* file, unsigned line) {
  return collective(kind, mask, predicate != 0, 0, 32, nullptr, Site{file, line});
}

}  // namespace

namespace {

// A shuffle's width must be a power of two from 1 to 32.
bool bad_width(CollectiveKind kind, int width) {
  const bool shuffle = kind >= CollectiveKind::shfl_index && kind <= CollectiveKind::shfl_xor;
  return shuffle && (width < 1 || width > 32 || (width & (width - 1)));
}

// What collective() does off its common path, out of line: their reports and copies would give
// it a stack frame of hundreds of bytes, spreading what every thread suspended in a warp
// intrinsic keeps on its stack over more cache lines.
__attribute__((noinline, cold)) void report_bad_mask(Thread* t, CollectiveKind kind, unsigned mask, int width,
                                                     const char* name, Site site) {
  const Block& b = *t->block;
  const Warp& w = b.warps[t->warp];
  if (!(mask & (1u << t->lane)))
    mask_error(t, name, site, "the calling lane " + std::to_string(t->lane) + " is not in the mask " + hex(mask),
               "name in the mask the lanes that make this call, the caller included, or call it outside the "
               "condition with every lane of the mask");
  if (mask & ~w.existing)
    mask_error(t, name, site,
               "the mask " + hex(mask) + " names " + lanes_named(mask & ~w.existing) + ", which " +
                   verb_for(mask & ~w.existing, "does", "do") + " not exist (the block has " +
                   std::to_string(b.thread_count) + " threads)");
  if (mask & w.exited)
    mask_error(t, name, site, "the mask " + hex(mask) + " names " + lanes_named(mask & w.exited) + ", which " +
                                  verb_for(mask & w.exited, "has", "have") + " already exited",
               kEveryLaneOfTheMask);
  if (bad_width(kind, width))
    mask_error(t, name, site, "width " + std::to_string(width) + " is not a power of two from 1 to 32");
}

__attribute__((noinline)) std::size_t open_group(Warp& w, CollectiveKind kind, unsigned mask, int width,
                                                 const char* name_or_null, Site site) {
  Group g;
  g.kind = kind;
  g.name = name_or_null;
  g.mask = mask;
  g.width = width;
  g.site = site;
  w.pending.push_back(g);
  return w.pending.size() - 1;
}

// The last lane of a collective has arrived: it completes, and the lanes that wait for it wake.
__attribute__((noinline)) void complete_pending(Block& b, Warp& w, std::size_t index, Thread* last) {
  Group done = w.pending[index];
  w.pending.erase(w.pending.begin() + static_cast<std::ptrdiff_t>(index));
  complete(b, done, last->warp, last);
}

}  // namespace

std::uint64_t collective(CollectiveKind kind, unsigned mask, std::uint64_t value, int argument, int width,
                         const char* name_or_null, Site site) {
  const char* name = name_or_null ? name_or_null : collective_name(kind);
  Thread* t = calling_thread(name, site);
  if (!t) return value;
  Block& b = *t->block;
  Warp& w = b.warps[t->warp];
  const unsigned bit = 1u << t->lane;
  if (!(mask & bit) || (mask & ~w.existing) || (mask & w.exited) || bad_width(kind, width))
    report_bad_mask(t, kind, mask, width, name, site);
  // A lane joins the collective of its mask and kind. Lanes of its mask may still be busy in
  // another collective (the two halves of a binary partition each reduce, then the tile syncs):
  // they come later. Collectives that can never complete are reported when the block is stuck.
  std::size_t index = w.pending.size();
  for (std::size_t i = 0; i < w.pending.size(); ++i)
    if (w.pending[i].mask == mask && w.pending[i].kind == kind) index = i;
  if (index == w.pending.size()) index = open_group(w, kind, mask, width, name_or_null, site);
  Group& g = w.pending[index];
  t->collective.value = value;
  g.lane_argument[t->lane] = argument;
  g.arrived |= bit;
  if (g.arrived == g.mask) {
    complete_pending(b, w, index, t);
    return t->collective.result;
  }
  scheduler::wait(t, Waiting::warp);
  return t->collective.result;
}

namespace {

// A coalesced group waits with mask 0 (it overlaps no other collective) until it forms.
bool form_if_complete(Block& b, unsigned warp_index, std::size_t index, Thread* caller, bool force) {
  Warp& w = b.warps[warp_index];
  Group& g = w.pending[index];
  if (!force && g.arrived != (w.existing & ~w.exited)) return false;
  Group done = g;
  done.mask = done.arrived;
  w.pending.erase(w.pending.begin() + static_cast<std::ptrdiff_t>(index));
  complete(b, done, warp_index, caller);
  return true;
}

}  // namespace

unsigned coalesce(const char* name, Site site) {
  Thread* t = calling_thread(name, site);
  if (!t) return 1;
  Block& b = *t->block;
  Warp& w = b.warps[t->warp];
  std::size_t index = w.pending.size();
  for (std::size_t i = 0; i < w.pending.size(); ++i)
    if (w.pending[i].kind == CollectiveKind::coalesce && same_site(w.pending[i].site, site)) index = i;
  if (index == w.pending.size()) {
    Group g;
    g.kind = CollectiveKind::coalesce;
    g.name = name;
    g.site = site;
    w.pending.push_back(g);
  }
  w.pending[index].arrived |= 1u << t->lane;
  if (form_if_complete(b, t->warp, index, t, false)) return static_cast<unsigned>(t->collective.result);
  scheduler::wait(t, Waiting::warp);
  return static_cast<unsigned>(t->collective.result);
}

bool report_mismatched_collectives(Block& b) {
  for (unsigned wi = 0; wi < b.warps.size(); ++wi) {
    const Warp& w = b.warps[wi];
    for (const Group& g : w.pending)
      for (const Group& h : w.pending) {
        if (&g == &h || !(g.mask & h.mask) || g.kind == CollectiveKind::coalesce || h.kind == CollectiveKind::coalesce)
          continue;
        Thread* t = &b.threads[wi * kWarpSize + __builtin_ctz(h.arrived)];
        Finding f;
        f.kind = ReportKind::warp_mask;
        f.headline = std::string("invalid ") + name_of(g) + ": " + lanes_named(g.arrived) + " " +
                     verb_for(g.arrived, "waits", "wait") + " with mask " + hex(g.mask) + " while " +
                     lanes_named(h.arrived) + " " +
                     verb_for(h.arrived, "waits", "wait") + " in " + name_of(h) +
                     " with mask " + hex(h.mask) + ", so neither can complete";
        f.parties.push_back(party(name_of(g), &b.threads[wi * kWarpSize + __builtin_ctz(g.arrived)], locate(g.site)));
        f.parties.push_back(party(name_of(h), t, locate(h.site)));
        f.details.push_back("the mask must name exactly the lanes that execute this call, and they must all call "
                            "the same intrinsic with the same mask");
        stop_for_mask(b, f);
        return true;
      }
  }
  return false;
}

bool form_coalesced_groups(Block& b) {
  bool formed = false;
  for (unsigned w = 0; w < b.warps.size(); ++w)
    for (std::size_t i = b.warps[w].pending.size(); i-- > 0;)
      if (b.warps[w].pending[i].kind == CollectiveKind::coalesce) formed |= form_if_complete(b, w, i, nullptr, true);
  return formed;
}

void begin_block(Block& b) {
  const unsigned warp_count = (b.thread_count + kWarpSize - 1) / kWarpSize;
  b.warps.assign(warp_count, Warp{});
  for (unsigned w = 0; w < warp_count; ++w) {
    const unsigned lanes = std::min(kWarpSize, b.thread_count - w * kWarpSize);
    b.warps[w].existing = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  }
}

bool report_lanes_at_a_barrier(Block& b) {
  for (unsigned w = 0; w < b.warps.size(); ++w)
    for (const Group& g : b.warps[w].pending) {
      const unsigned missing = g.mask & ~g.arrived & ~b.warps[w].exited;
      if (!missing || !g.arrived) continue;
      const Thread* at_barrier = nullptr;
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        if ((missing & (1u << lane)) && b.threads[w * kWarpSize + lane].waiting == Waiting::barrier) {
          at_barrier = &b.threads[w * kWarpSize + lane];
          break;
        }
      if (!at_barrier) continue;
      Finding f;
      f.kind = ReportKind::warp_mask;
      f.headline = std::string("invalid ") + name_of(g) + ": " + lanes_named(missing) + " of its mask " +
                   hex(g.mask) + " " + verb_for(missing, "waits", "wait") + " at a barrier instead of making the call";
      f.parties.push_back(party(name_of(g), &b.threads[w * kWarpSize + __builtin_ctz(g.arrived)], locate(g.site)));
      f.parties.push_back(party("barrier", at_barrier, locate(at_barrier->barrier.site)));
      f.details.push_back(lanes_named(g.arrived) + " called it; " + lanes_named(missing) +
                          " of its mask did not (a condition around the call let them pass it) and went on to the "
                          "barrier, which waits for the lanes still in the call: neither can complete");
      stop_for_mask(b, f);
      return true;
    }
  return false;
}

void lane_exited(Thread& t) {
  Block& b = *t.block;
  Warp& w = b.warps[t.warp];
  w.exited |= 1u << t.lane;
  for (std::size_t i = w.pending.size(); i-- > 0;)
    if (w.pending[i].kind == CollectiveKind::coalesce) form_if_complete(b, t.warp, i, nullptr, false);
  for (const Group& g : w.pending) {
    if (!(g.mask & (1u << t.lane))) continue;
    Finding f;
    f.kind = ReportKind::warp_mask;
    f.headline = std::string("invalid ") + name_of(g) + ": lane " + std::to_string(t.lane) +
                 " exited, but it is in the mask " + hex(g.mask) + " that " + lanes_named(g.arrived) + " " +
                 verb_for(g.arrived, "waits", "wait") + " with";
    f.parties.push_back(party(name_of(g), &b.threads[t.warp * kWarpSize + __builtin_ctz(g.arrived)],
                              locate(g.site)));
    f.details.push_back(lanes_named(g.arrived) + " called it; " + lanes_named(g.mask & ~g.arrived) +
                        " of its mask did not (a condition around the call, or an early return, let them pass it)");
    stop_for_mask(b, f);
    return;
  }
}

const Site* waiting_site(const Thread& t) {
  for (const Group& g : t.block->warps[t.warp].pending)
    if ((g.mask | g.arrived) & (1u << t.lane)) return &g.site;
  return nullptr;
}

}  // namespace scanlab::sim::detail::warp

namespace scanlab::sim::detail {

std::uint64_t warp_shuffle(ShuffleKind kind, unsigned mask, std::uint64_t value, int lane_or_delta, int width,
                           const char* file, unsigned line) {
  if (counters::enabled) count_intrinsic(CountedIntrinsic::shuffle);
  using warp::CollectiveKind;
  static constexpr CollectiveKind kinds[] = {CollectiveKind::shfl_index, CollectiveKind::shfl_up,
                                             CollectiveKind::shfl_down, CollectiveKind::shfl_xor};
  return warp::collective(kinds[static_cast<int>(kind)], mask, value, lane_or_delta, width, nullptr, Site{file, line});
}

}  // namespace scanlab::sim::detail

using scanlab::sim::detail::warp::CollectiveKind;
using scanlab::sim::detail::warp::vote;

unsigned __ballot_sync(unsigned mask, int predicate, const char* file, unsigned line) {
  if (scanlab::sim::detail::counters::enabled) {
    scanlab::sim::detail::count_intrinsic(scanlab::sim::detail::CountedIntrinsic::ballot);
  }
  return static_cast<unsigned>(vote(CollectiveKind::ballot, mask, predicate, file, line));
}
int __any_sync(unsigned mask, int predicate, const char* file, unsigned line) {
  return static_cast<int>(vote(CollectiveKind::any, mask, predicate, file, line));
}
int __all_sync(unsigned mask, int predicate, const char* file, unsigned line) {
  return static_cast<int>(vote(CollectiveKind::all, mask, predicate, file, line));
}
void __syncwarp(unsigned mask, const char* file, unsigned line) {
  vote(CollectiveKind::syncwarp, mask, 1, file, line);
}
unsigned __match_any_sync(unsigned mask, unsigned long long value, const char* file, unsigned line) {
  return static_cast<unsigned>(scanlab::sim::detail::warp::collective(CollectiveKind::match_any, mask, value, 0, 32,
                                                                      nullptr, {file, line}));
}
unsigned __match_all_sync(unsigned mask, unsigned long long value, int* predicate, const char* file, unsigned line) {
  const auto result = static_cast<unsigned>(
      scanlab::sim::detail::warp::collective(CollectiveKind::match_all, mask, value, 0, 32, nullptr, {file, line}));
  if (predicate) *predicate = result != 0;
  return result;
}
unsigned __activemask() {
  const scanlab::sim::detail::Thread* t = scanlab::sim::detail::current_thread;
  if (!t) return 0;
  const scanlab::sim::detail::warp::Warp& w = t->block->warps[t->warp];
  return w.existing & ~w.exited;
}
