// The race detector: compute-sanitizer racecheck's rule, applied to every access of student code.
//
// Within a block, two accesses to the same byte by different threads, at least one a write and
// not both atomic, are a hazard unless a barrier lies between them (they are in different
// barrier intervals) or a __syncwarp orders them (same warp). This is exact at any block size:
// each 4-byte word remembers its last write and up to two readers of the current interval,
// with the bytes each touched.
//
// Between blocks (global memory only), accesses are ordered only through a flag hand-off: a
// block that stores a flag (atomic or volatile) after a __threadfence() publishes what it wrote
// before the fence, and a block that reads that flag (atomic or volatile) acquires it. Blocks
// carry vector clocks; an access of another block that was not published to this one is a race.
#pragma once

#include <cstddef>
#include <cstdint>

#include "state.hpp"

namespace scanlab::sim::detail {

enum AccessFlags : std::uint8_t { kRead = 0, kWrite = 1, kAtomic = 2, kVolatile = 4 };

void ensure_shadow();
// Every access of kernel code to device memory, before it happens: bounds, then races.
void check_access(Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags, std::uintptr_t pc);
// Flag hand-off between blocks through a global location.
void release(Thread* t, std::uintptr_t address);
void acquire(Thread* t, std::uintptr_t address);
// The launch whose accesses are current; records of earlier launches are ordered before it.
void begin_race_epoch(std::uint32_t launch_id, bool race_check);

}  // namespace scanlab::sim::detail
