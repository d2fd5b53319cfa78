// The addresses whose accesses from host code the simulator checks at all: global memory (a
// cudaMalloc pointer used on the host, managed buffers) and __managed__ variables. Everything
// else host code touches (its own arrays, stack, heap) reaches no check.
//
// Lab code compiled by simcc tests an address against this thread's range inline before it
// calls a load or store hook (tools/host_access_filter.py), so that a host loop over host arrays
// runs at the host compiler's speed instead of calling the simulator for every element. That
// code reads the range by symbol and field offset: keep the layout.
#pragma once

#include <cstddef>
#include <cstdint>

// Addresses a with a - begin < bytes reach the hook. Every thread starts with all addresses in
// it; a thread running a CUDA thread keeps them all (threads/turn.hpp widens it at every turn);
// host code's first access through the hook narrows it to what host code may be checked for.
extern "C" struct ScanlabHostCheckedRange {
  std::uintptr_t begin;
  std::uintptr_t bytes;
};
extern "C" __thread ScanlabHostCheckedRange scanlab_sim_host_checked_range __attribute__((tls_model("initial-exec")));

static_assert(offsetof(ScanlabHostCheckedRange, begin) == 0 && offsetof(ScanlabHostCheckedRange, bytes) == 8,
              "tools/host_access_filter.py reads these fields at these offsets");

namespace scanlab::sim::detail::memory {

// Every address, on this thread: before a CUDA thread's turn.
inline void check_every_address() { scanlab_sim_host_checked_range.bytes = UINTPTR_MAX; }

// Global memory and the program's __managed__ variables (the smallest range that holds both), on
// this thread, once device memory is reserved: called by host code's path of the access hook.
void check_host_addresses_only();

}  // namespace scanlab::sim::detail::memory
