// Block barriers (__syncthreads and its counting forms) with CUDA's rules: all live threads of a
// block wait at the same call site before any passes.
#pragma once

#include <cstdint>

#include "site.hpp"

namespace scanlab::sim::detail {
struct Block;
}

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

void begin_block(Block& b);

// Every live thread of the block waits: lets them pass the barrier they wait at, or, where they
// do not all wait at one barrier, reports why none can ever pass and stops the launch.
void release(Block& b);

}  // namespace scanlab::sim::detail::barrier
