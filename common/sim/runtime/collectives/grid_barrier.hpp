// The grid barrier of a cooperative launch (cudaLaunchCooperativeKernel, grid_group::sync): every
// thread of the grid waits until all have arrived. Every block of such a launch is resident from
// its start (a GPU refuses the launch where they would not all fit), so the wait can end.
//
// For the checks it orders memory as a barrier between blocks: what any thread did before it is
// ordered before what any thread does after it, in shared memory (it is a __syncthreads of every
// block too) and in global memory, where the accesses before it are forgotten by the race
// detector and the memory model as those of an earlier launch are. A grid barrier that some
// block cannot reach, because it has exited, is reported at its line and stops the launch.
#pragma once

#include "base/site.hpp"
#include "threads/block.hpp"
#include "threads/launch.hpp"

namespace scanlab::sim::detail::grid_barrier {

void begin_launch(const Launch& launch);
// A block that finished can never arrive: where every other block waits, the grid is stuck.
void end_block(Block& b);

// grid_group::sync() by the calling CUDA thread, at the program's `site`; `pc` is the program's
// code address for a wait the deadlock report names. Refused (reported, the kernel stopped) in a
// launch that is not cooperative.
void sync(Site site, std::uintptr_t pc);

}  // namespace scanlab::sim::detail::grid_barrier
