// Managed memory (cudaMallocManaged, __managed__ variables) and when the host may touch it.
// Kernels run here when they are launched, but on a GPU they run asynchronously: host code that
// reads or writes managed memory before synchronizing with a kernel launched earlier reads values
// the kernel may not have written yet, and faults outright on a device without concurrent
// managed access. Such an access is reported, at the host's line and the launch's.
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/site.hpp"
#include "scanlab/sim/cuda.hpp"

// __managed__ variables live in this section (scanlab/sim/cuda.hpp), whose bounds the linker
// provides when the program has any.
extern "C" char __start_scanlab_managed[] __attribute__((weak));
extern "C" char __stop_scanlab_managed[] __attribute__((weak));

namespace scanlab::sim::detail::managed_memory {

// cudaMallocManaged's buffers are cudaMalloc's buffers that are also registered here.
void add(const void* p, std::size_t bytes);
void remove(const void* p);
// Whether a global address lies in a managed buffer.
bool is_managed(std::uintptr_t a);

// What synchronizes the host with kernels: a launch, and the calls that wait for it.
void kernel_launched(Site launch, cudaStream_t stream);
void synchronized_all();
void synchronized(cudaStream_t stream);
// The launches of `stream` up to `launches` (a count from launches_so_far()) have finished.
void synchronized_up_to(cudaStream_t stream, std::uint64_t launches);
std::uint64_t launches_so_far();

inline bool in_managed_variables(std::uintptr_t a) {
  return a - reinterpret_cast<std::uintptr_t>(__start_scanlab_managed) <
         static_cast<std::uintptr_t>(__stop_scanlab_managed - __start_scanlab_managed);
}

// Whether host code may touch the global address now, whoever's code it is: a managed buffer
// with no kernel launched since the host last synchronized.
bool host_may_touch(std::uintptr_t address);

// A host access to device memory, global or a __managed__ variable: true when it is managed
// memory (reported when a kernel may still be running), false when it is not (device memory
// that the host must not touch at all).
bool host_access(std::uintptr_t address, bool write, std::uintptr_t pc);

}  // namespace scanlab::sim::detail::managed_memory
