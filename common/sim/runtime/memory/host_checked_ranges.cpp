#include "memory/host_checked_ranges.hpp"

#include <algorithm>

#include "memory/managed_memory.hpp"
#include "memory/memory.hpp"

__thread ScanlabHostCheckedRange scanlab_sim_host_checked_range = {0, UINTPTR_MAX};

namespace scanlab::sim::detail::memory {

// The addresses the host's path of the access hook (entry/instrumentation_hooks.cpp) looks at:
// global memory and __managed__ variables, or, when the program has some, the range from the
// lower of the two to the end of the higher (what lies between still reaches the hook, which
// lets it go).
void check_host_addresses_only() {
  if (!regions.ready) return;
  std::uintptr_t begin = regions.global_begin;
  std::uintptr_t end = regions.global_begin + kGlobalBytes;
  if (__stop_scanlab_managed != __start_scanlab_managed) {
    begin = std::min(begin, reinterpret_cast<std::uintptr_t>(__start_scanlab_managed));
    end = std::max(end, reinterpret_cast<std::uintptr_t>(__stop_scanlab_managed));
  }
  scanlab_sim_host_checked_range = {begin, end - begin};
}

}  // namespace scanlab::sim::detail::memory
