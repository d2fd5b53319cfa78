#include "memory/global_memory.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <mutex>

#include "memory/memory.hpp"
#include "memory/race_shadow.hpp"
#include "memory/spilled_checks.hpp"

namespace scanlab::sim::detail::global_memory {
namespace {

using memory::kGlobalBytes;
using memory::kGlobalLayout;
using memory::regions;

struct Allocation {
  std::uintptr_t begin = 0;
  std::size_t bytes = 0;
  Site site;
  bool freed = false;
  bool checks_in_memory = true;  // else in the file of spilled checks (memory/spilled_checks.hpp)
};

std::mutex allocation_mutex;
// Both tables are created on first use and never destroyed: a program's static objects may call
// cudaFree from their destructors at exit, in whatever order the translation units' statics go.
std::map<std::uintptr_t, Allocation>& allocations() {  // by begin address, freed ones kept for reports
  static auto* const table = new std::map<std::uintptr_t, Allocation>;
  return *table;
}
std::map<std::size_t, std::size_t>& free_ranges() {  // offset -> bytes, coalesced
  static auto* const table = new std::map<std::size_t, std::size_t>;
  return *table;
}
// No buffer starts at the range's first byte: `x[-1]` of the first buffer is then still global
// memory, reported as lying before that buffer, not in whatever the system mapped below.
std::size_t bump = kGlobalLayout.red_zone;
std::size_t in_use = 0;

// A buffer's share of the global range: the buffer, its red zone, and the padding up to where the
// next buffer may start. An empty buffer takes a byte, so that every cudaMalloc has its own address.
std::size_t footprint(std::size_t bytes) {
  return kGlobalLayout.start(kGlobalLayout.end(0, std::max<std::size_t>(bytes, 1)));
}

// The checks a span of the global range takes: a byte of the byte map and a quarter of a race
// shadow cell for each byte (a second reader's array is taken only where a word has one).
std::size_t check_bytes(std::size_t span) {
  return span + span / race_detector::kGranule * sizeof(race_detector::GlobalCell);
}

// The allocation a global address is in or next to, or null: for readable reports.
const Allocation* allocation_near(std::uintptr_t a) {
  std::lock_guard<std::mutex> lock(allocation_mutex);
  auto it = allocations().upper_bound(a);
  if (it == allocations().begin()) return nullptr;
  --it;
  return a < it->first + footprint(it->second.bytes) ? &it->second : nullptr;
}

}  // namespace

void* allocate(std::size_t bytes, Site site, Contents contents) {
  memory::ensure_reserved();
  std::lock_guard<std::mutex> lock(allocation_mutex);
  const std::size_t span = footprint(bytes);
  std::size_t offset = kGlobalBytes;
  for (auto it = free_ranges().begin(); it != free_ranges().end(); ++it) {
    if (it->second >= span) {
      offset = it->first;
      std::size_t rest = it->second - span;
      free_ranges().erase(it);
      if (rest) free_ranges().emplace(offset + span, rest);
      break;
    }
  }
  if (offset == kGlobalBytes) {
    if (bump + span > kGlobalBytes) return nullptr;
    offset = bump;
    bump += span;
  }
  std::uintptr_t begin = regions.global_begin + offset;
  // Before the byte map is written: a spilled buffer's is written into the file.
  bool spilled = memory::spill::decide(span, check_bytes(span), site);
  if (spilled) {
    const bool byte_map_moved = memory::spill::move_to_file(memory::validity_of(begin), span);
    const bool shadow_moved = race_detector::move_shadow_to_file(begin, span);
    if (!byte_map_moved || !shadow_moved) {
      // What did move goes back at cudaFree (bring_back finds it); the rest is memory's.
      memory::spill::count_in_memory(check_bytes(span));
      spilled = false;
    }
  }
  memory::open_buffer(begin, begin, bytes, begin + span,
                      contents == Contents::unwritten ? memory::kUnwritten : memory::kLive);
  // Forget the freed buffers this one now covers, so lookups find the live one.
  allocations().erase(allocations().lower_bound(begin), allocations().lower_bound(begin + span));
  allocations().emplace(begin, Allocation{begin, bytes, site, false, !spilled});
  in_use += bytes;
  return reinterpret_cast<void*>(begin);
}

FreeResult deallocate(void* p) {
  auto a = reinterpret_cast<std::uintptr_t>(p);
  if (!regions.ready || !memory::in_global(a)) return FreeResult::not_device;
  std::lock_guard<std::mutex> lock(allocation_mutex);
  auto it = allocations().find(a);
  if (it == allocations().end()) return FreeResult::not_an_allocation;
  if (it->second.freed) return FreeResult::double_free;
  Allocation& alloc = it->second;
  alloc.freed = true;
  const std::size_t offset = a - regions.global_begin;
  const std::size_t span = footprint(alloc.bytes);
  memory::close_buffer(a, alloc.bytes);
  race_detector::forget_range(a, span);
  if (alloc.checks_in_memory) memory::spill::forget_in_memory(check_bytes(span));
  memory::spill::bring_back(memory::validity_of(a), span);  // nothing to do where none of it moved
  in_use -= alloc.bytes;
  // Return the range, merging with free neighbours so large buffers can be reused.
  auto next = free_ranges().lower_bound(offset);
  std::size_t begin = offset, length = span;
  if (next != free_ranges().end() && next->first == begin + length) {
    length += next->second;
    next = free_ranges().erase(next);
  }
  if (next != free_ranges().begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == begin) {
      begin = prev->first;
      length += prev->second;
      free_ranges().erase(prev);
    }
  }
  free_ranges().emplace(begin, length);
  return FreeResult::freed;
}

bool range_live(const void* p, std::size_t n) {
  auto a = reinterpret_cast<std::uintptr_t>(p);
  if (!regions.ready || !memory::in_global(a) || !memory::in_global(a + n - (n > 0))) return false;
  const Allocation* alloc = allocation_near(a);
  return alloc && !alloc->freed && a >= alloc->begin && a + n <= alloc->begin + alloc->bytes;
}

std::vector<Buffer> live_buffers() {
  std::lock_guard<std::mutex> lock(allocation_mutex);
  std::vector<Buffer> live;
  for (const auto& [begin, a] : allocations())
    if (!a.freed) live.push_back(Buffer{begin, a.bytes});
  return live;
}

std::size_t bytes_in_use() {
  std::lock_guard<std::mutex> lock(allocation_mutex);
  return in_use;
}

// The live or freed buffer nearest to `a` in the global range: the one it is in, or of the
// buffers around it the one it is closer to (an access just before a buffer is closer to that
// buffer than to the end of the one before it). Null when there is none.
const Allocation* allocation_nearest(std::uintptr_t a, std::size_t& distance) {
  std::lock_guard<std::mutex> lock(allocation_mutex);
  auto next = allocations().upper_bound(a);
  const Allocation* before = next == allocations().begin() ? nullptr : &std::prev(next)->second;
  const Allocation* after = next == allocations().end() ? nullptr : &next->second;
  const std::size_t past_before = before ? (a >= before->begin + before->bytes ? a - before->begin - before->bytes : 0)
                                         : SIZE_MAX;
  const std::size_t until_after = after ? after->begin - a : SIZE_MAX;
  if (past_before == SIZE_MAX && until_after == SIZE_MAX) return nullptr;
  distance = std::min(past_before, until_after);
  return past_before <= until_after ? before : after;
}

std::string describe_address(std::uintptr_t a) {
  if (!memory::in_window(a)) return "host memory";
  // An address in a guard is far from every buffer: named by the nearest global buffer, since a
  // wild index of a shared variable cannot be told from one of a global buffer there.
  const std::string prefix = memory::in_global(a) ? ""
                                                  : "no device memory at all (a wild index or pointer, far outside "
                                                    "every buffer); the nearest buffer: ";
  std::size_t distance = 0;
  const Allocation* alloc = allocation_nearest(a, distance);
  if (!alloc) return prefix + "global memory that no cudaMalloc returned";
  std::string buffer = "a " + std::to_string(alloc->bytes) + "-byte buffer allocated at " +
                       std::string(alloc->site.file ? alloc->site.file : "?") + ":" + std::to_string(alloc->site.line);
  if (alloc->freed) buffer += ", already freed";
  if (a < alloc->begin) return prefix + std::to_string(distance) + " bytes before the start of " + buffer;
  if (a >= alloc->begin + alloc->bytes) return prefix + std::to_string(distance) + " bytes past the end of " + buffer;
  return "byte " + std::to_string(a - alloc->begin) + " of " + buffer;
}

std::optional<MemorySubject> subject_of(std::uintptr_t address) {
  if (!memory::in_global(address)) return std::nullopt;
  for (const global_memory::Buffer& b : live_buffers()) {
    if (address < b.begin || address >= b.begin + b.bytes) continue;
    MemorySubject s;
    s.space = MemorySpace::global;
    s.byte = address - b.begin;
    // The buffer in the very words of the location ("byte 12 of a 44-byte buffer allocated at
    // scan.cu:197"), which global_memory gives for any byte of it: those of its first byte, less
    // the byte, so that the record and the text never name it two ways.
    static const std::string kFirstByte = "byte 0 of ";
    const std::string first = describe_address(b.begin);
    s.buffer = first.compare(0, kFirstByte.size(), kFirstByte) == 0 ? first.substr(kFirstByte.size()) : first;
    return s;
  }
  return std::nullopt;
}

}  // namespace scanlab::sim::detail::global_memory
