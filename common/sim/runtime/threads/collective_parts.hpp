// What the barriers and collectives (collectives/) keep of a thread and of a block: the parts of
// Thread and Block that barrier.cpp, warp.cpp and tile_barrier.cpp set up and write, declared
// here so that the model of threads and blocks stands below the modules that use it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "base/device_limits.hpp"
#include "base/site.hpp"

namespace scanlab::sim::detail::barrier {

enum class Kind : std::uint8_t { sync, count, all, any };

// A thread's part: the barrier it waits at, and what that barrier returns to it.
struct Arrival {
  Site site;
  Kind kind = Kind::sync;
  bool predicate = false;
  int result = 0;
};

// A block's part.
// What the waiting threads agree on is kept as they arrive, so that letting them pass costs
// nothing per thread beyond waking it.
struct BlockBarrier {
  unsigned waiting = 0;        // threads waiting at a barrier
  std::uint32_t interval = 1;  // barriers crossed + 1: accesses in different intervals are ordered
  Site last;                   // the last barrier crossed, for race reports
  Site site;                   // where the first waiting thread waits
  Kind kind = Kind::sync;      // and at which kind of barrier
  bool diverged = false;       // some waiting thread waits at another barrier (or kind)
  int predicates = 0;          // sum of the waiting threads' predicates
};

}  // namespace scanlab::sim::detail::barrier

namespace scanlab::sim::detail::warp {

enum class CollectiveKind : std::uint8_t {
  syncwarp, ballot, any, all, shfl_index, shfl_up, shfl_down, shfl_xor, match_any, match_all,
  coalesce,  // cooperative_groups::coalesced_threads(): its lanes are those that arrive (below)
};

// A thread's part: what its lane brings to a collective, and what it takes away.
struct LaneExchange {
  std::uint64_t value = 0;
  std::uint64_t result = 0;
};

// A collective that lanes have arrived at and others are still awaited for.
struct Group {
  CollectiveKind kind;
  const char* name = nullptr;  // what the program called, for reports (a cooperative-groups method, say)
  unsigned mask = 0;
  unsigned arrived = 0;
  int width = 32;
  Site site;
  std::array<int, kWarpSize> lane_argument{};  // source lane or delta per lane
};

// A block's part, one per warp.
struct Warp {
  unsigned existing = 0;  // lanes that exist (a partial last warp has fewer)
  unsigned exited = 0;
  std::vector<Group> pending;  // collectives waiting for lanes, with disjoint masks
};

}  // namespace scanlab::sim::detail::warp

namespace scanlab::sim::detail::tile_barrier {

enum class Kind : std::uint8_t { sync, any, all, shfl };

// A thread's part (kept by the block, so that a thread of a program without such tiles carries
// nothing of it): what it brings to the tile's rendezvous, and what it takes away.
struct Arrival {
  std::uint64_t value = 0;
  std::uint64_t result = 0;
  unsigned argument = 0;
  std::uint32_t pending = 0;  // the rendezvous it waits in: its place in BlockTiles::pending + 1; 0: none
};

// A rendezvous of one tile that some of its threads have reached.
struct Rendezvous {
  unsigned first = 0;    // the tile's first thread (linear index in the block)
  unsigned size = 0;     // the tile's size
  unsigned members = 0;  // its threads that exist (fewer in a block that is not a multiple of the size)
  unsigned arrived = 0;
  Kind kind = Kind::sync;
  const char* name = nullptr;  // what the program called, for reports
  Site site;
  unsigned source = 0;         // shfl: the rank every member reads
  // The first member that came to this tile's rendezvous by another call or kind, or asked a
  // shuffle for another rank: found when the last member arrives.
  bool diverged = false, sources_differ = false;
  unsigned odd_thread = 0;
  const char* odd_name = nullptr;
  Site odd_site;
};

// A block's part.
struct BlockTiles {
  std::vector<Rendezvous> pending;  // places of completed ones (members == 0) are taken again
  std::vector<Arrival> threads;     // by thread, from the block's first rendezvous
};

}  // namespace scanlab::sim::detail::tile_barrier

namespace scanlab::sim::detail::async_barrier {

// Which of a block-scope pipeline's two barriers of a stage a barrier is (block_pipeline.cpp):
// `produced` completes when every producer committed the stage (consumer_wait() waits for it),
// `consumed` when every consumer released it (producer_acquire() waits for it).
enum class PipelineSide : std::uint8_t { none, produced, consumed };

// One barrier object in shared memory (cuda::barrier<thread_scope_block>, an mbarrier): a phase
// completes when its expected arrivals have come and its transaction count is back to zero.
struct Barrier {
  std::uintptr_t initialized_at = 0;  // code address of its init, for reports
  std::uint32_t expected = 0;         // arrivals a phase waits for
  std::uint32_t pending = 0;          // arrivals the current phase still waits for
  std::int64_t transaction = 0;       // bytes the current phase still waits for (negative: arrived before expected)
  std::uint64_t expected_bytes = 0;   // this phase: bytes announced (expect_tx, arrive_tx) ...
  std::uint64_t arrived_bytes = 0;    // ... and bytes copies delivered, for reports
  std::uint64_t phase = 0;            // phases completed
  bool waited = false;                // a thread found the current phase incomplete, for deadlock reports
  std::uintptr_t polled_at = 0;       // ... at this code address, the last time one did
  std::uint8_t waited_parity = 2;     // ... polling for this parity (2: with an arrival token)
  std::uint32_t polled_by = 0;        // ... by this thread of the block (its linear index)
  // What the current phase's arrivals publish, per warp of the block, and what every phase
  // completed so far published (a waiter that sees a phase complete acquires it).
  std::array<std::uint32_t, kMaxThreadsPerBlock / kWarpSize> arriving{};
  std::array<std::uint32_t, kMaxThreadsPerBlock / kWarpSize> completed{};
  std::uint32_t init_ordinal = 0;  // how many barriers the block had initialized at the same code before it
  // A barrier that a cuda::pipeline_shared_state holds: reports name it by its pipeline and stage,
  // in the pipeline's words (commits and releases, not arrivals).
  PipelineSide pipeline = PipelineSide::none;
  std::uint8_t stage = 0;
  std::uintptr_t pipeline_state = 0;  // the shared state's address
  // Per thread of the block (sized at the first arrival or wait), how it used the barrier, so
  // that a race report can tell what the program meant to order two accesses with.
  struct Use {
    std::uint32_t waits = 0;       // parity waits that saw a phase complete
    std::uint64_t seen = 0;        // the phase count when its last wait saw a phase complete (0: none)
    std::uint64_t arrived = 0;     // the phase count its last arrival came in, + 1 (0: none)
    std::uintptr_t arrived_at = 0;  // code address of that arrival
    std::uint64_t arrival = 0;      // its place among the block's arrivals (BlockBarriers::arrivals)
  };
  std::vector<Use> by_thread;
};

// A parity wait that returned for a phase its thread had already seen complete, or for the one
// before the first (which PTX counts as complete): the wait ordered nothing.
struct StaleWait {
  std::uintptr_t barrier = 0;
  std::uintptr_t waited_at = 0;  // code address of the try_wait
  unsigned parity = 0;
  std::uint64_t completed = 0;  // phases the barrier had completed then
  std::uint32_t needed = 0;     // the phase this use needed: the thread's earlier waits on it
};

// A block's part: its barrier objects, by address.
struct BlockBarriers {
  std::unordered_map<std::uintptr_t, Barrier> by_address;
  std::unordered_map<unsigned, StaleWait> stale_waits;  // by thread: its last wait that ordered nothing
  std::uint64_t arrivals = 0;  // arrivals on any of them so far
};

}  // namespace scanlab::sim::detail::async_barrier

namespace scanlab::sim::detail::bulk_copy {

// A bulk copy from shared to global memory that its thread has issued and not yet waited for:
// it reads its source until the thread's cp.async.bulk.wait_group(.read) covers its group.
struct PendingStore {
  std::uintptr_t destination = 0;
  std::uintptr_t source = 0;
  std::size_t bytes = 0;
  std::uintptr_t issued_at = 0;  // code address
  std::uint32_t group = 0;       // bulk groups its thread had committed before it
  std::vector<unsigned char> issued_bytes;  // the source as it was at the issue, to tell a later write
  std::uintptr_t released_at = 0;  // code address of its thread's first arrival on a barrier after the issue
  std::uintptr_t released_barrier = 0;  // and that barrier's address
};

// A block's part: per thread, its bulk stores in flight and the bulk groups it has committed.
struct BlockStores {
  std::unordered_map<unsigned, std::vector<PendingStore>> in_flight;  // by thread
  std::unordered_map<unsigned, std::uint32_t> committed;             // by thread
  // Per warp, the block's race-clock generation at its last fence.proxy.async: a write to a bulk
  // store's source made before it (in an older generation) is ordered for the async proxy.
  std::array<std::uint32_t, kMaxThreadsPerBlock / kWarpSize> proxy_fence{};
};

}  // namespace scanlab::sim::detail::bulk_copy

namespace scanlab::sim::detail::block_pipeline {

// A pipeline shared by threads of a block (cuda::pipeline_shared_state<thread_scope_block, N>),
// by the address of its shared state. make_pipeline() counts its threads' roles first, then one
// thread makes the stages' barriers from those counts.
struct Pipeline {
  unsigned stages = 0;
  std::uint32_t producers = 0;  // joined so far (a thread of both roles counts in both) ...
  std::uint32_t consumers = 0;  // ... and, once made, what each stage's barriers expect
  std::uint32_t active = 0;     // threads that have not quit: the last quit() releases the state
  bool made = false;
  // Per stage, the first copy into its round not yet complete, for a copy still in flight when
  // the block ends.
  struct StageCopy {
    std::uintptr_t at = 0;  // code address (0: none)
    unsigned thread = 0;
    std::uint64_t round = 0;  // the phase of the stage's produced barrier it completes with
  };
  std::vector<StageCopy> copies;
};

// A block's part.
struct BlockPipelines {
  std::unordered_map<std::uintptr_t, Pipeline> by_state;
};

}  // namespace scanlab::sim::detail::block_pipeline
