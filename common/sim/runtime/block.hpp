// One resident block: its threads, the scheduler's bookkeeping, and the part of the block each
// module keeps. A module sets its part up in its begin_block() (and tears it down in its
// end_block(), where it holds something beyond the block's life); only that module writes it.
#pragma once

#include <memory>
#include <vector>

#include "barrier.hpp"
#include "counters.hpp"
#include "race_detector.hpp"
#include "scanlab/sim/cuda.hpp"
#include "shared_memory.hpp"
#include "thread.hpp"
#include "warp.hpp"

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
  std::vector<Thread*> round;     // scratch
  bool finished = false;
  bool progress = false;  // more than spinning happened in this round: set by whatever wakes threads

  barrier::BlockBarrier barrier;    // barrier.cpp
  std::vector<warp::Warp> warps;    // warp.cpp
  shared_memory::Arena shared;      // shared_memory.cpp
  race_detector::BlockClocks race;  // race_detector.cpp
  counters::BlockTally counting;    // counters.cpp
};

}  // namespace scanlab::sim::detail
