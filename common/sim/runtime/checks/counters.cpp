#include "checks/counters.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_set>

#include "scanlab/sim/counters.hpp"
#include "threads/block.hpp"
#include "threads/launch.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::counters {

bool enabled = false;

namespace {

constexpr std::uintptr_t kBankWidth = 4;  // bytes
constexpr std::uintptr_t kBanks = 32;
constexpr std::uintptr_t kWavefrontBytes = kBanks * kBankWidth;
constexpr std::uintptr_t kSectorBytes = 32;

Counters totals;  // since the last take_counters()

// Per launch site, for the summary SCANLAB_SIM_COUNTERS=1 prints at exit.
struct SiteTotals {
  unsigned long long launches = 0;
  Counters counters;
};
std::map<std::string, SiteTotals>* by_site = nullptr;
SiteTotals* current_site = nullptr;

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

void add(AccessCounters& to, std::uint64_t transactions, std::uint64_t ideal) {
  to.requests += 1;
  to.transactions += transactions;
  to.ideal += ideal;
}

void add(Counters& to, const Counters& from) {
  for (auto [t, f] : {std::pair{&to.shared_loads, &from.shared_loads}, std::pair{&to.shared_stores, &from.shared_stores},
                      std::pair{&to.global_loads, &from.global_loads}, std::pair{&to.global_stores, &from.global_stores}}) {
    t->requests += f->requests;
    t->transactions += f->transactions;
    t->ideal += f->ideal;
  }
  to.ballot_calls += from.ballot_calls;
  to.popc_calls += from.popc_calls;
  to.clz_calls += from.clz_calls;
  to.shuffle_calls += from.shuffle_calls;
  to.warp_intervals += from.warp_intervals;
  to.divergent_warp_intervals += from.divergent_warp_intervals;
  to.extra_paths += from.extra_paths;
}

// Shared memory: 32 banks of 4-byte words. A warp-wide access takes as many passes
// (wavefronts) as the most distinct words any one bank must deliver (lanes reading the same
// word share it), and at least one per 128 bytes. Ideal: the distinct words, 32 per pass.
void evaluate_shared(const Request& r, std::uintptr_t base, Counters& c) {
  std::set<std::uintptr_t> words;
  for (auto [address, size] : r.bytes) {
    for (std::uintptr_t w = (address - base) / kBankWidth; w <= (address - base + size - 1) / kBankWidth; ++w) {
      words.insert(w);
    }
  }
  std::uint32_t per_bank[kBanks] = {};
  for (std::uintptr_t w : words) per_bank[w % kBanks] += 1;
  const std::uint64_t deepest = *std::max_element(per_bank, per_bank + kBanks);
  const std::uint64_t ideal = std::max<std::uint64_t>(1, ceil_div(words.size(), kBanks));
  const std::uint64_t wavefronts = std::max<std::uint64_t>(deepest, ceil_div(words.size() * kBankWidth, kWavefrontBytes));
  add(r.store ? c.shared_stores : c.shared_loads, wavefronts, ideal);
}

// Global memory: the distinct 32-byte sectors the lanes touch; ideal: the distinct bytes
// packed into sectors.
void evaluate_global(const Request& r, Counters& c) {
  std::set<std::uintptr_t> sectors;
  std::set<std::uintptr_t> bytes;
  for (auto [address, size] : r.bytes) {
    for (std::uintptr_t a = address; a < address + size; ++a) bytes.insert(a);
    for (std::uintptr_t s = address / kSectorBytes; s <= (address + size - 1) / kSectorBytes; ++s) sectors.insert(s);
  }
  add(r.store ? c.global_stores : c.global_loads, sectors.size(), ceil_div(bytes.size(), kSectorBytes));
}

// Lanes of one warp that ran in the interval, compared by the hash of their paths.
void evaluate_paths(Block& b, Counters& c) {
  constexpr unsigned kWarpSize = 32;
  const unsigned warps = (b.thread_count + kWarpSize - 1) / kWarpSize;
  for (unsigned w = 0; w < warps; ++w) {
    std::unordered_set<std::uint64_t> paths;
    for (unsigned i = w * kWarpSize; i < std::min(b.thread_count, (w + 1) * kWarpSize); ++i) {
      LaneTally& lane = b.threads[i].counting;
      if (lane.ran) paths.insert(lane.path);
    }
    if (paths.empty()) continue;
    c.warp_intervals += 1;
    if (paths.size() > 1) {
      c.divergent_warp_intervals += 1;
      c.extra_paths += paths.size() - 1;
    }
  }
}

void print_summary() {
  if (!by_site || by_site->empty()) return;
  std::fprintf(stderr, "scanlab-sim: counters per kernel launch site (SCANLAB_SIM_COUNTERS; see common/sim/README.md)\n");
  for (const auto& [site, s] : *by_site) {
    const Counters& c = s.counters;
    std::fprintf(stderr, "  %s: %llu launch%s\n", site.c_str(), s.launches, s.launches == 1 ? "" : "es");
    std::fprintf(stderr, "    shared loads   %12llu requests %12llu wavefronts %12llu bank conflicts\n",
                 c.shared_loads.requests, c.shared_loads.transactions, c.shared_loads.excess());
    std::fprintf(stderr, "    shared stores  %12llu requests %12llu wavefronts %12llu bank conflicts\n",
                 c.shared_stores.requests, c.shared_stores.transactions, c.shared_stores.excess());
    std::fprintf(stderr, "    global loads   %12llu requests %12llu sectors    %12llu ideal sectors\n",
                 c.global_loads.requests, c.global_loads.transactions, c.global_loads.ideal);
    std::fprintf(stderr, "    global stores  %12llu requests %12llu sectors    %12llu ideal sectors\n",
                 c.global_stores.requests, c.global_stores.transactions, c.global_stores.ideal);
    std::fprintf(stderr, "    divergence     %12llu of %llu warp intervals divergent, %llu extra paths\n",
                 c.divergent_warp_intervals, c.warp_intervals, c.extra_paths);
    std::fprintf(stderr, "    intrinsics     %12llu __ballot_sync %llu __popc %llu __clz %llu shuffles\n", c.ballot_calls,
                 c.popc_calls, c.clz_calls, c.shuffle_calls);
  }
}

struct FromEnvironment {
  FromEnvironment() {
    const char* v = std::getenv("SCANLAB_SIM_COUNTERS");
    if (v && *v && std::strcmp(v, "0") != 0) {
      enabled = true;
      by_site = new std::map<std::string, SiteTotals>();
      std::atexit(print_summary);
    }
  }
} from_environment;

}  // namespace

void begin_launch(const Launch& launch) {
  if (!enabled || !by_site) {
    current_site = nullptr;
    return;
  }
  std::string site = launch.site.file ? std::string(launch.site.file) + ":" + std::to_string(launch.site.line)
                                      : std::string("<unknown launch site>");
  current_site = &(*by_site)[site];
  current_site->launches += 1;
}

void begin_block(Block& b) {
  b.counting.requests.clear();
  for (unsigned i = 0; i < b.thread_count; ++i) b.threads[i].counting = LaneTally{};
}

void end_interval(Block& b) {
  if (!enabled) return;
  Counters c;
  for (const auto& [key, request] : b.counting.requests) {
    if (request.shared) {
      evaluate_shared(request, reinterpret_cast<std::uintptr_t>(b.shared.base), c);
    } else {
      evaluate_global(request, c);
    }
  }
  evaluate_paths(b, c);
  b.counting.requests.clear();
  for (unsigned i = 0; i < b.thread_count; ++i) {
    LaneTally& lane = b.threads[i].counting;
    lane.executions.clear();
    lane.path = 0;
    lane.ran = false;
  }
  add(b.counting.counted, c);
}

void end_block(Block& b) { end_interval(b); }

void add_block_counts(Block& b) {
  add(totals, b.counting.counted);
  if (current_site) add(current_site->counters, b.counting.counted);
  b.counting.counted = Counters{};
}

void record_access(Thread& t, std::uintptr_t address, std::size_t bytes, bool shared, bool store, std::uintptr_t pc) {
  std::uint32_t occurrence = 0;
  auto& executions = t.counting.executions;
  auto it = std::find_if(executions.begin(), executions.end(), [pc](const auto& e) { return e.first == pc; });
  if (it == executions.end()) {
    executions.emplace_back(pc, 1);
  } else {
    occurrence = it->second++;
  }
  Request& r = t.block->counting.requests[RequestKey{t.warp, pc, occurrence}];
  r.shared = shared;
  r.store = store;
  r.bytes.emplace_back(address, static_cast<std::uint32_t>(bytes));
}

void record_basic_block(Thread& t, std::uintptr_t pc) {
  t.counting.path = (t.counting.path ^ pc) * 0x100000001B3ull;
  t.counting.ran = true;
}

}  // namespace scanlab::sim::detail::counters

namespace scanlab::sim::detail {

// Calls by CUDA threads only; host code's calls of the same functions are not a kernel's.
void count_intrinsic(CountedIntrinsic which) {
  if (!counters::enabled || !current_thread) return;
  Counters c;
  switch (which) {
    case CountedIntrinsic::ballot: c.ballot_calls = 1; break;
    case CountedIntrinsic::popc: c.popc_calls = 1; break;
    case CountedIntrinsic::clz: c.clz_calls = 1; break;
    case CountedIntrinsic::shuffle: c.shuffle_calls = 1; break;
  }
  counters::add(current_thread->block->counting.counted, c);
}

}  // namespace scanlab::sim::detail

namespace scanlab::sim {

void set_counting(bool on) { detail::counters::enabled = on; }

Counters take_counters() {
  Counters c = detail::counters::totals;
  detail::counters::totals = Counters{};
  return c;
}

}  // namespace scanlab::sim

// GCC's and Clang's -fsanitize-coverage=trace-pc calls this at the start of every basic block
// of lab code: the lanes' paths, for divergence.
extern "C" void __sanitizer_cov_trace_pc() {
  using namespace scanlab::sim::detail;
  if (!counters::enabled) return;
  if (Thread* t = current_thread) {
    counters::record_basic_block(*t, reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
  }
}
