// Counting how kernels would use a GPU (scanlab/sim/counters.hpp): bank conflicts, sectors
// per warp-wide global access, divergent warps.
//
// The simulator does not run a warp's lanes in lockstep, so a warp-wide access is grouped
// after the fact: within one barrier interval of the block, the k-th execution of one
// instruction (the return address of the memory-access hook) by each lane of a warp forms
// the k-th request of that instruction. Paths are compared the same way: each lane hashes
// the basic blocks it runs in the interval (-fsanitize-coverage=trace-pc); lanes with
// different hashes took different paths. Everything is evaluated when the interval ends (a
// barrier crossing, or the block's end).
#pragma once

#include <cstdint>
#include <cstddef>

#include "scanlab/sim/counters.hpp"
#include "threads/block.hpp"
#include "threads/launch.hpp"

namespace scanlab::sim::detail::counters {

// Read on every access and basic block of lab code: one predictable branch while off.
extern bool enabled;

void begin_launch(const Launch& launch);
void begin_block(Block& b);
// The block's last interval; on the OS thread that ran it.
void end_block(Block& b);
// What the slot's blocks counted since the last call, into the process's counters; on the host
// thread, between phases.
void add_block_counts(Block& b);
// Evaluates and forgets the block's requests and paths of the interval that ends now.
void end_interval(Block& b);

void record_access(Thread& t, std::uintptr_t address, std::size_t bytes, bool shared, bool store, std::uintptr_t pc);
void record_basic_block(Thread& t, std::uintptr_t pc);

}  // namespace scanlab::sim::detail::counters
