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
#include <unordered_map>
#include <utility>
#include <vector>

#include "scanlab/sim/counters.hpp"

namespace scanlab::sim::detail {
struct Block;
struct Thread;
struct Launch;
}  // namespace scanlab::sim::detail

namespace scanlab::sim::detail::counters {

// Read on every access and basic block of lab code: one predictable branch while off.
extern bool enabled;

// A thread's part: which instructions it ran how often in the current interval, its path.
struct LaneTally {
  std::vector<std::pair<std::uintptr_t, std::uint32_t>> executions;  // pc -> times, this interval
  std::uint64_t path = 0;                                            // hash of the basic blocks run
  bool ran = false;
};

// One warp-wide access being gathered.
struct Request {
  bool shared = false;
  bool store = false;
  std::vector<std::pair<std::uintptr_t, std::uint32_t>> bytes;  // (address, size) per lane access
};

struct RequestKey {
  unsigned warp;
  std::uintptr_t pc;
  std::uint32_t occurrence;
  bool operator==(const RequestKey& o) const { return warp == o.warp && pc == o.pc && occurrence == o.occurrence; }
};
struct RequestKeyHash {
  std::size_t operator()(const RequestKey& k) const {
    return (k.pc * 0x9E3779B97F4A7C15ull) ^ (std::size_t{k.warp} << 32) ^ k.occurrence;
  }
};

// A block's part: the requests of the current interval, and what the finished intervals of
// the blocks that ran in this slot counted (added to the process's counters by the scheduler
// after each phase).
struct BlockTally {
  std::unordered_map<RequestKey, Request, RequestKeyHash> requests;
  Counters counted;
};

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
