// What the simulator costs: the price of one thread crossing one barrier (the unit that
// dominates every lab), also taken apart by block size and accesses; Kogge-Stone sections
// (independent 1024-element scans, the kernel other CPU runtimes are compared on); a whole
// three-kernel scan of 2^20 elements; each with and without race detection; and how that scan
// scales with the OS threads that run blocks. The kernels are in bench_kernels.cu, which runs on
// the simulator.
//   sim_benchmarks [--benchmark_filter=...] [--benchmark_min_time=...]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include <scanlab/sim/diagnostics.hpp>

#include "bench_kernels.hpp"

namespace scanlab::sim::bench {
namespace {

constexpr unsigned kBarrierRounds = 64;
constexpr unsigned kScanElements = 1u << 20;
constexpr unsigned kSmallScanElements = 1u << 16;

// threads: OS threads that run blocks; 0 keeps what the environment says (SCANLAB_SIM_THREADS,
// every core by default), so that a case without a thread count runs as a student's program would.
void configure(bool race_check, unsigned threads = 0) {
  static const unsigned from_environment = get_schedule().threads;
  Schedule s = get_schedule();
  s.race_check = race_check;
  s.threads = threads ? threads : from_environment;
  s.replay = false;  // every iteration runs its launches
  set_schedule(s);
}

std::vector<int> scan_input(unsigned n) {
  std::vector<int> input(n);
  for (unsigned i = 0; i < n; ++i) input[i] = static_cast<int>(i % 7) - 3;
  return input;
}

// What run_sections() computes: each section of HierarchicalScan::kSection scanned on its own.
std::vector<int> section_scans(const std::vector<int>& input) {
  std::vector<int> expected(input.size());
  for (std::size_t s = 0; s < input.size(); s += HierarchicalScan::kSection) {
    const std::size_t end = std::min<std::size_t>(s + HierarchicalScan::kSection, input.size());
    std::partial_sum(input.begin() + static_cast<std::ptrdiff_t>(s), input.begin() + static_cast<std::ptrdiff_t>(end),
                     expected.begin() + static_cast<std::ptrdiff_t>(s));
  }
  return expected;
}

std::vector<int> full_scan(const std::vector<int>& input) {
  std::vector<int> expected(input.size());
  std::partial_sum(input.begin(), input.end(), expected.begin());
  return expected;
}

// A counter shown as time per unit: `units` per iteration, inverted into seconds per unit.
benchmark::Counter time_per(double units) {
  return benchmark::Counter(units, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_BarrierCrossing(benchmark::State& state) {
  configure(state.range(0) != 0);
  for (auto _ : state) barrier_rounds(kBarrierRounds);
  const double crossings = double{kBarrierBlockThreads} * kBarrierRounds;
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * crossings));
  state.counters["per_thread_barrier"] = time_per(crossings);
}
BENCHMARK(BM_BarrierCrossing)->ArgName("racecheck")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The same crossing taken apart: a block of 32 threads (whose state stays in the L1 and L2
// caches) or 1024, with no shared-memory access per round, one, or two (BM_BarrierCrossing); and
// the checked crossing with two accesses at the block sizes between, where a block's state
// outgrows the L2 cache.
void BM_BarrierCrossingParts(benchmark::State& state) {
  configure(state.range(0) != 0);
  const auto threads = static_cast<unsigned>(state.range(1));
  const auto accesses = static_cast<unsigned>(state.range(2));
  // As many crossings per launch whatever the block size (to within a round), so that the launch
  // weighs the same.
  const unsigned rounds = kBarrierRounds * kBarrierBlockThreads / threads;
  for (auto _ : state) barrier_rounds(rounds, threads, accesses);
  const double crossings = static_cast<double>(threads) * rounds;
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * crossings));
  state.counters["per_thread_barrier"] = time_per(crossings);
}
BENCHMARK(BM_BarrierCrossingParts)
    ->ArgNames({"racecheck", "threads", "accesses"})
    ->ArgsProduct({{0, 1}, {32, kBarrierBlockThreads}, {0, 1, 2}})
    ->ArgsProduct({{1}, {128, 256, 512, 768}, {2}})
    ->Unit(benchmark::kMicrosecond);

// Double-buffered Kogge-Stone over independent sections of 1024 ints, 1024 threads per block:
// HierarchicalScan's first kernel alone, timed per thread and barrier.
void BM_KoggeStoneSections(benchmark::State& state) {
  configure(state.range(0) != 0);
  const std::vector<int> input = scan_input(kScanElements);
  HierarchicalScan scan(input);
  scan.run_sections();
  if (scan.result() != section_scans(input)) {
    state.SkipWithError("the section scans are wrong");
    return;
  }
  for (auto _ : state) scan.run_sections();
  const double crossings = double{kScanElements} * HierarchicalScan::kBarriersPerSection;
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * kScanElements);
  state.counters["per_thread_barrier"] = time_per(crossings);
}
BENCHMARK(BM_KoggeStoneSections)->ArgName("racecheck")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The three-kernel scan; threads: OS threads that run blocks (0: every core).
void BM_HierarchicalScan(benchmark::State& state) {
  configure(state.range(0) != 0, static_cast<unsigned>(state.range(2)));
  const auto n = static_cast<unsigned>(state.range(1));
  const std::vector<int> input = scan_input(n);
  HierarchicalScan scan(input);
  scan.run();
  if (scan.result() != full_scan(input)) {
    state.SkipWithError("the scan computed a wrong result");
    return;
  }
  for (auto _ : state) scan.run();
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * n);
  state.counters["per_element"] = time_per(n);
}
// 2^20 elements is the measurement; 2^16 is there for quick runs (the smoke test). With race
// checks, the scan runs on 1, 2, 4 and 8 OS threads and as the environment says (threads:0:
// every core unless SCANLAB_SIM_THREADS is set): the scaling of blocks over cores.
BENCHMARK(BM_HierarchicalScan)
    ->ArgNames({"racecheck", "elements", "threads"})
    ->Args({1, kScanElements, 0})
    ->Args({0, kScanElements, 0})
    ->Args({1, kSmallScanElements, 0})
    ->Args({1, kScanElements, 1})
    ->Args({1, kScanElements, 2})
    ->Args({1, kScanElements, 4})
    ->Args({1, kScanElements, 8})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace scanlab::sim::bench

BENCHMARK_MAIN();
