// The call chain of host code, read from the stack and the debug information (addr2line): whether
// Thrust's code is on it, and the program's own innermost line. What the host did is then
// reported at the program's line, never inside Thrust's headers or the simulator's runtime.
// Slow (a process per question): for reports, and for questions whose answer is kept.
#pragma once

#include <cstdint>
#include <vector>

#include "findings/report.hpp"

namespace scanlab::sim::detail::call_chain {

struct Reading {
  bool through_thrust = false;  // Thrust (or the CUB and libcu++ under it) is on the chain
  SourceLocation program_line;  // the innermost frame of the program's own source
};

// The chain from the frame whose return address is `from` outwards (from = 0: the whole stack
// of the caller).
Reading read(std::uintptr_t from = 0);

// The source frames of the code at these return addresses (each call is the instruction before
// its return address), innermost first, inlined calls included: one addr2line run for all.
// For the faulting instruction itself, pass its address + 1.
std::vector<SourceLocation> source_frames(const std::vector<std::uintptr_t>& return_addresses);

}  // namespace scanlab::sim::detail::call_chain
