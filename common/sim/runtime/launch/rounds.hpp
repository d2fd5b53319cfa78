// A resident block's share of a launch's phases: in the parallel phase, rounds in which each of
// its runnable threads takes a turn, in an order the block's seed picks, until it finishes, only
// spins, or waits for the serial phase; in the serial phase, the turns of its threads that wait
// for it.
#pragma once

#include "threads/block.hpp"

namespace scanlab::sim::detail::rounds {

// The parallel phase of a block: it runs until it finishes, or until its threads only spin or
// wait for the serial phase. Keeping one block on its OS thread while it makes progress keeps
// its fibers in cache.
void parallel_step(Block& b);
// The serial phase of a block: each thread that waits for it runs its cross-block operation,
// in the order the threads came, and goes back to the parallel phase at its next access.
void serial_step(Block& b);

}  // namespace scanlab::sim::detail::rounds
