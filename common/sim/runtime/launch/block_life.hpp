// A block's life in a resident slot: its threads set up (each CUDA thread's fiber made once and
// reused by the slot's later blocks), each module's part of it begun, and its end.
#pragma once

#include <cstdint>

#include "threads/block.hpp"
#include "threads/launch.hpp"

namespace scanlab::sim::detail::blocks {

// Block `linear` of the launch takes resident slot `slot`: the scheduler's part first, then each
// module's part, which may read it.
void start(Block& b, Launch& launch, unsigned linear, unsigned slot, std::uint64_t launch_seed);
// A block leaves its slot, finished or stopped with the launch. The fibers of a stopped block
// are dropped (they unwind); those of a finished one are parked, ready for the next block.
void end(Block& b);
// A block stopped on its own (scheduler::stop_block) leaves its slot as a finished one does,
// its fibers unwound on the worker that owns them; the launch keeps its error.
void retire_stopped(Block& b);

}  // namespace scanlab::sim::detail::blocks
