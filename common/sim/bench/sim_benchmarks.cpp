// What the simulator costs: the price of one thread crossing one barrier (the unit that
// dominates every lab), and a whole three-kernel scan of 2^20 elements, with and without race
// detection. The kernels are in bench_kernels.cu, which runs on the simulator.
//   sim_benchmarks [--benchmark_filter=...] [--benchmark_min_time=...]
#include <benchmark/benchmark.h>

#include <numeric>
#include <vector>

#include <scanlab/sim/diagnostics.hpp>

#include "bench_kernels.hpp"

namespace scanlab::sim::bench {
namespace {

constexpr unsigned kBarrierRounds = 64;
constexpr unsigned kScanElements = 1u << 20;
constexpr unsigned kSmallScanElements = 1u << 16;

void set_race_check(bool on) {
  Schedule s = get_schedule();
  s.race_check = on;
  set_schedule(s);
}

// A counter shown as time per unit: `units` per iteration, inverted into seconds per unit.
benchmark::Counter time_per(double units) {
  return benchmark::Counter(units, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_BarrierCrossing(benchmark::State& state) {
  set_race_check(state.range(0) != 0);
  for (auto _ : state) barrier_rounds(kBarrierRounds);
  const double crossings = double{kBarrierBlockThreads} * kBarrierRounds;
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * crossings));
  state.counters["per_thread_barrier"] = time_per(crossings);
}
BENCHMARK(BM_BarrierCrossing)->ArgName("racecheck")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_HierarchicalScan(benchmark::State& state) {
  set_race_check(state.range(0) != 0);
  const auto n = static_cast<unsigned>(state.range(1));
  std::vector<int> input(n);
  for (unsigned i = 0; i < n; ++i) input[i] = static_cast<int>(i % 7) - 3;
  HierarchicalScan scan(input);
  scan.run();
  std::vector<int> expected(n);
  std::partial_sum(input.begin(), input.end(), expected.begin());
  if (scan.result() != expected) {
    state.SkipWithError("the scan computed a wrong result");
    return;
  }
  for (auto _ : state) scan.run();
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * n);
  state.counters["per_element"] = time_per(n);
}
// 2^20 elements is the measurement; 2^16 is there for quick runs (the smoke test).
BENCHMARK(BM_HierarchicalScan)
    ->ArgNames({"racecheck", "elements"})
    ->Args({1, kScanElements})
    ->Args({0, kScanElements})
    ->Args({1, kSmallScanElements})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace scanlab::sim::bench

BENCHMARK_MAIN();
