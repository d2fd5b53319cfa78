// A launch in which no resident thread can do anything but spin: reported as a deadlock, naming
// the spinning threads and the blocks that never started.
#pragma once

#include <vector>

#include "findings/wait_picture.hpp"
#include "launch/coresidency.hpp"
#include "threads/block.hpp"
#include "threads/launch.hpp"

namespace scanlab::sim::detail::deadlock {

// Rounds in which no resident thread did anything but spin before a deadlock is declared. In
// such a round every resident thread had a turn and memory did not change, so a spin that is
// waiting for another block waits for nothing that will come; only a spin bounded by its own
// count can still end. Large enough for such a loop that gives up after a few thousand polls,
// small enough that a chain of blocks that waits for a block that has not started is
// reported in seconds even with many OS threads (each round hands every slot its turn).
constexpr unsigned kRounds = 2000;

// The first thread of a block that spins (rather than waiting at a barrier or a warp collective).
const Thread* spinning_thread(const Block& b);
// The launch's blocks as data for a picture (findings/wait_picture.hpp): a window of at most 32
// blocks around the waiting ones, each with its state, and for a waiting block where it spins
// and, where the check can tell, the block it waits for. `resident`: the blocks that run;
// `waiting`: those not started. For a deadlock, and for a launch that relied on co-residency.
WaitPicture wait_picture(const Launch& launch, const std::vector<Block*>& resident, const std::vector<unsigned>& waiting);
// Reports the deadlock and stops the launch. `fit`: how many blocks the device holds at once,
// where the running blocks wait for blocks that have not started and the grid does not fit.
void report(Launch& launch, const std::vector<Block*>& resident, const std::vector<unsigned>& waiting,
            const coresidency::GridFit* fit);

}  // namespace scanlab::sim::detail::deadlock
