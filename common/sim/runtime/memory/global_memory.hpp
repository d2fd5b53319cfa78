// cudaMalloc's allocator: buffers in the global range of device memory, each followed by its red
// zone. Freed ranges are reused first-fit and merged with their neighbours, and freed buffers
// are remembered, so that a report can say what an address used to be.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/site.hpp"
#include "findings/picture.hpp"

namespace scanlab::sim::detail::global_memory {

// What a new buffer holds. cudaMalloc's holds nothing yet: a kernel that reads a byte before
// anything wrote it is reported. Memory that the host may fill without the simulator seeing it
// (through memcpy or memset of the C library) must count as written, or its reads would be
// reported falsely.
enum class Contents { unwritten, written };
void* allocate(std::size_t bytes, Site site, Contents contents = Contents::written);
enum class FreeResult { freed, not_device, not_an_allocation, double_free };
FreeResult deallocate(void* p);
// Whether [p, p+n) lies inside one live cudaMalloc buffer.
bool range_live(const void* p, std::size_t n);
std::size_t bytes_in_use();
// The live buffers, in address order.
struct Buffer {
  std::uintptr_t begin;
  std::size_t bytes;
};
std::vector<Buffer> live_buffers();

// "byte 4000 of a 4000-byte buffer allocated at file:30": where a global address is, in the
// student's terms ("host memory" outside the global range).
std::string describe_address(std::uintptr_t a);

// Where a finding in global memory happened, as data (a record's "memory"): the live buffer that
// holds `address`, named as the finding's location names it, and the byte of it; none outside
// every live buffer.
std::optional<MemorySubject> subject_of(std::uintptr_t address);

}  // namespace scanlab::sim::detail::global_memory
