// What the simulator can count about how a kernel would use a GPU: shared-memory bank
// conflicts, global-memory sectors per warp-wide access (coalescing) and warps whose lanes
// took different paths (control divergence). Counting is off by default; it costs nothing
// then. How each number is defined: common/sim/README.md, "Counters".
#pragma once

namespace scanlab::sim {

// Warp-wide accesses of one kind (shared or global, loads or stores).
struct AccessCounters {
  unsigned long long requests = 0;      // warp-wide accesses (one instruction of one warp)
  unsigned long long transactions = 0;  // shared: wavefronts (bank passes); global: 32-byte sectors
  unsigned long long ideal = 0;         // what the same bytes would take, perfectly laid out
  unsigned long long excess() const { return transactions - ideal; }  // shared: bank conflicts
};

struct Counters {
  AccessCounters shared_loads, shared_stores, global_loads, global_stores;
  unsigned long long warp_intervals = 0;            // (warp, barrier interval) pairs in which lanes ran
  unsigned long long divergent_warp_intervals = 0;  // ... in which the lanes took different paths
  unsigned long long extra_paths = 0;               // distinct paths beyond the first, summed
  // Calls of warp and bit intrinsics by CUDA threads (one per calling thread).
  unsigned long long ballot_calls = 0, popc_calls = 0, clz_calls = 0, shuffle_calls = 0;

  unsigned long long bank_conflicts() const { return shared_loads.excess() + shared_stores.excess(); }
};

// Turns counting on or off (SCANLAB_SIM_COUNTERS=1 in the environment turns it on at start).
void set_counting(bool on);
// Totals of the kernels that ran since the previous call; then starts again from zero.
Counters take_counters();

}  // namespace scanlab::sim
