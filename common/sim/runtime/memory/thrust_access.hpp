// Host code that touches device memory on behalf of Thrust. The simulator builds Thrust with its
// C++ device system (scanlab/sim/cuda.hpp): `thrust::exclusive_scan(thrust::device_ptr<int>(p),
// ...)` over cudaMalloc memory, legal CUDA, runs its loop on the host, and a device_reference
// (`int x = dp[3];`) reads device memory from the host as the CUDA system does with a copy. Such
// an access is no host-code bug: it is the algorithm running "on the device". It is checked as a
// kernel's access is (inside a live buffer; a read of bytes something wrote) and marks what it
// writes as written, and what it finds is reported at the program's innermost line, never
// inside Thrust's headers.
//
// An access is Thrust's when Thrust's code is on its call chain (inlined or not): the access
// itself inside Thrust's headers, or a functor of the program that a Thrust algorithm calls.
// The chain is read once per code address, from the debug information (addr2line).
#pragma once

#include <cstddef>
#include <cstdint>

namespace scanlab::sim::detail::thrust_access {

// Whether the host access at code address `pc` (the return address of its hook) was made by
// Thrust. Called from host code only.
bool made_by_thrust(std::uintptr_t pc);

// Checks such an access to the global range of device memory, reports what is wrong with it at
// the program's line, and marks the bytes it writes as written.
void check(std::uintptr_t address, std::size_t bytes, bool write, std::uintptr_t pc);

}  // namespace scanlab::sim::detail::thrust_access
