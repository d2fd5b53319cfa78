// The recorder of a block's steps: off unless SCANLAB_SIM_STEP_PICTURE=block:X,Y,Z[:VARIABLE]
// names a block, as a grader does when it runs again a test whose scan gave a wrong result.
// Then at every barrier block (X,Y,Z) crosses, the bytes of one of its shared variables (the one
// named, else the dynamic part, else the largest) are copied with the barrier's line; when the
// block ends, its run's copies go out as one record (kind "unsupported", a warning, with
// "picture": {"kind": "steps", ...}; findings/picture.hpp), from which the grader draws the
// student's array after each step beside the array the lab's algorithm would hold. Each run of
// the block is one record (a test launches a kernel many times, and only the grader knows which
// launch went wrong), up to kMaxRuns records and kMaxBytes copied in a process. A run without the
// setting pays one predictable branch per barrier and per block.
#pragma once

#include <atomic>

namespace scanlab::sim::detail {
struct Block;
}

namespace scanlab::sim::detail::step_picture {

// Steps are asked for and there is room for more. Read at every barrier of every block.
extern std::atomic<bool> recording;

// The followed block begins a run: its copies start afresh.
void begin_block(const Block& b);
// Block b crossed a barrier (b.barrier.last is its site): a copy of the variable, if b is followed.
void barrier_crossed(const Block& b);
// The followed block's run ended: its copies are reported.
void end_block(const Block& b);

}  // namespace scanlab::sim::detail::step_picture
