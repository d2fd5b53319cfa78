// Block barriers (__syncthreads and its counting forms) with CUDA's rules: all live threads of a
// block wait at the same call site before any passes.
#pragma once

#include "base/site.hpp"
#include "threads/block.hpp"

namespace scanlab::sim::detail::barrier {

void begin_block(Block& b);
// The block's run ended (a picture of its steps asked for goes out then).
void end_block(Block& b);

// Every live thread of the block waits: lets them pass the barrier they wait at, or, where they
// do not all wait at one barrier, reports why none can ever pass and stops the launch.
void release(Block& b);

// At a deadlock: where some warps of the block wait at a __syncthreads() while others spin on
// the block's own barrier objects (a barrier in one role's code of a warp-specialized kernel, a
// block-wide function called inside a branch), reports that barrier at its line, naming the
// warps there and where the others are; true when the block is in that state.
bool report_reached_by_some_warps(Block& b);

}  // namespace scanlab::sim::detail::barrier
