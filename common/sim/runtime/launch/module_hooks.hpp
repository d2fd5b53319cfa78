// What the modules do when a launch or a block begins or ends, run from one list
// (module_hooks.cpp) instead of being called one by one from the scheduler. A module's hook
// sets up or tears down its part of the launch, or of the block (block.hpp), which only it
// writes.
#pragma once

#include "threads/block.hpp"
#include "threads/launch.hpp"

namespace scanlab::sim::detail::module_hooks {

// In the list's order, after the scheduler has set up its part.
void begin_launch(const Launch& launch);
void begin_block(Block& b);
// In the reverse order: a module ends before those it stands on.
void end_block(Block& b);
void end_launch(const Launch& launch);

}  // namespace scanlab::sim::detail::module_hooks
