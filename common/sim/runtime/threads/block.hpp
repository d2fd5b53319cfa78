// One resident block: its threads, the scheduler's bookkeeping, and the part of the block each
// module keeps. A module sets its part up in its begin_block() (and tears it down in its
// end_block(), where it holds something beyond the block's life), which the launch runs from
// one list (launch/module_hooks.cpp); only that module writes its part.
#pragma once

#include <memory>
#include <vector>

#include "base/settings.hpp"
#include "findings/report.hpp"
#include "scanlab/sim/cuda.hpp"
#include "threads/check_parts.hpp"
#include "threads/collective_parts.hpp"
#include "threads/shared_memory.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail {

struct Launch;

struct Block {
  Launch* launch = nullptr;
  unsigned linear = 0;
  uint3 index{};
  unsigned slot = 0;  // which resident slot (shared memory arena) it occupies
  std::unique_ptr<Thread[]> threads;
  unsigned thread_count = 0;
  unsigned live = 0;
  std::vector<Thread*> runnable;  // threads to resume in the next round
  std::vector<Thread*> round;     // scratch: the threads of the round being run, in order
  std::vector<char> queued;       // scratch: per thread, whether it is in the round
  std::vector<unsigned> warp_order;  // scratch
  // While a round runs, each thread that suspends hands the processor straight to the next one
  // (one switch a thread, not two); the last hands it back to `home`, the worker that runs it.
  bool chained = false;
  std::size_t round_next = 0;  // the next thread of the round to run
  boost::context::fiber home;
  std::vector<Thread*> deferred;  // threads waiting for the serial phase, in the order they came
  Random random{0};               // thread order within the block: seeded per block, whatever runs beside it
  bool finished = false;
  bool progress = false;  // more than spinning happened in this pass: set by whatever wakes threads
  bool progressed = false;  // ... in this phase
  bool stopped = false;   // a finding no thread can get past: the launch ends
  bool stopped_alone = false;  // ... or only this block ends, and the others go on
  cudaError_t error = cudaSuccess;  // what the launch ends with, as far as this block knows

  barrier::BlockBarrier barrier;    // barrier.cpp
  std::vector<warp::Warp> warps;    // warp.cpp
  tile_barrier::BlockTiles tiles;   // tile_barrier.cpp
  shared_memory::Arena shared;      // shared_memory.cpp
  race_detector::BlockClocks race;  // race_detector.cpp
  memory_order::BlockOrdering ordering;  // memory_order.cpp
  memory_check::BlockChecks checks;      // memory_check.cpp
  counters::BlockTally counting;    // counters.cpp
  PendingFindings findings;         // report.cpp
  // Last: used only by kernels with barrier objects or bulk copies, away from what every barrier
  // crossing and access touches above.
  async_barrier::BlockBarriers async_barriers;  // async_barrier.cpp
  bulk_copy::BlockStores bulk_stores;           // bulk_copy.cpp
  block_pipeline::BlockPipelines pipelines;     // block_pipeline.cpp
};

}  // namespace scanlab::sim::detail
