#include "memory.hpp"

#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

namespace scanlab::sim::detail {

MemoryRegions regions;

namespace {

std::mutex allocation_mutex;
std::map<std::uintptr_t, Allocation> allocations;   // by begin address, freed ones kept for reports
std::map<std::size_t, std::size_t> free_ranges;      // offset -> bytes, coalesced
std::size_t bump = 0;
std::size_t in_use = 0;

void* reserve(std::size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    std::fprintf(stderr, "scanlab-sim: cannot reserve %zu MiB of address space for device memory\n", bytes >> 20);
    std::abort();
  }
  return p;
}

// A buffer's share of the global range: the buffer, its red zone, and the padding up to where the
// next buffer may start. An empty buffer takes a byte, so that every cudaMalloc has its own address.
std::size_t footprint(std::size_t bytes) {
  return kGlobalLayout.start(kGlobalLayout.end(0, std::max<std::size_t>(bytes, 1)));
}

void release_pages(std::uintptr_t begin, std::size_t bytes) {
  const std::uintptr_t page = 4096;
  std::uintptr_t first = (begin + page - 1) & ~(page - 1);
  std::uintptr_t last = (begin + bytes) & ~(page - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

__attribute__((constructor(101))) void reserve_at_startup() { ensure_memory(); }

}  // namespace

void ensure_memory() {
  static std::once_flag once;
  std::call_once(once, [] {
    regions.global_begin = reinterpret_cast<std::uintptr_t>(reserve(kGlobalBytes));
    regions.shared_begin = reinterpret_cast<std::uintptr_t>(reserve(kSharedBytes));
    regions.global_validity = static_cast<std::uint8_t*>(reserve(kGlobalBytes));
    regions.shared_validity = static_cast<std::uint8_t*>(reserve(kSharedBytes));
    regions.ready = true;
  });
}

void* allocate_global(std::size_t bytes, Site site) {
  ensure_memory();
  std::lock_guard<std::mutex> lock(allocation_mutex);
  const std::size_t span = footprint(bytes);
  std::size_t offset = kGlobalBytes;
  for (auto it = free_ranges.begin(); it != free_ranges.end(); ++it) {
    if (it->second >= span) {
      offset = it->first;
      std::size_t rest = it->second - span;
      free_ranges.erase(it);
      if (rest) free_ranges.emplace(offset + span, rest);
      break;
    }
  }
  if (offset == kGlobalBytes) {
    if (bump + span > kGlobalBytes) return nullptr;
    offset = bump;
    bump += span;
  }
  std::uintptr_t begin = regions.global_begin + offset;
  open_buffer(begin, begin, bytes, begin + span);
  // Forget the freed buffers this one now covers, so lookups find the live one.
  allocations.erase(allocations.lower_bound(begin), allocations.lower_bound(begin + span));
  allocations.emplace(begin, Allocation{begin, bytes, site, false});
  in_use += bytes;
  return reinterpret_cast<void*>(begin);
}

FreeResult free_global(void* p) {
  auto a = reinterpret_cast<std::uintptr_t>(p);
  if (!regions.ready || !in_global(a)) return FreeResult::not_device;
  std::lock_guard<std::mutex> lock(allocation_mutex);
  auto it = allocations.find(a);
  if (it == allocations.end()) return FreeResult::not_an_allocation;
  if (it->second.freed) return FreeResult::double_free;
  Allocation& alloc = it->second;
  alloc.freed = true;
  const std::size_t offset = a - regions.global_begin;
  const std::size_t span = footprint(alloc.bytes);
  mark(a, alloc.bytes, kFreed);
  release_pages(a, alloc.bytes);
  in_use -= alloc.bytes;
  // Return the range, merging with free neighbours so large buffers can be reused.
  auto next = free_ranges.lower_bound(offset);
  std::size_t begin = offset, length = span;
  if (next != free_ranges.end() && next->first == begin + length) {
    length += next->second;
    next = free_ranges.erase(next);
  }
  if (next != free_ranges.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == begin) {
      begin = prev->first;
      length += prev->second;
      free_ranges.erase(prev);
    }
  }
  free_ranges.emplace(begin, length);
  return FreeResult::freed;
}

const Allocation* allocation_near(std::uintptr_t a) {
  std::lock_guard<std::mutex> lock(allocation_mutex);
  auto it = allocations.upper_bound(a);
  if (it == allocations.begin()) return nullptr;
  --it;
  return a < it->first + footprint(it->second.bytes) ? &it->second : nullptr;
}

bool global_range_live(const void* p, std::size_t n) {
  auto a = reinterpret_cast<std::uintptr_t>(p);
  if (!regions.ready || !in_global(a) || !in_global(a + n - (n > 0))) return false;
  const Allocation* alloc = allocation_near(a);
  return alloc && !alloc->freed && a >= alloc->begin && a + n <= alloc->begin + alloc->bytes;
}

std::size_t global_bytes_in_use() {
  std::lock_guard<std::mutex> lock(allocation_mutex);
  return in_use;
}

unsigned char* shared_arena(unsigned slot) {
  ensure_memory();
  return reinterpret_cast<unsigned char*>(regions.shared_begin + std::size_t{slot} * kSharedArenaBytes);
}

void open_buffer(std::uintptr_t free_from, std::uintptr_t begin, std::size_t bytes, std::uintptr_t end) {
  mark(free_from, begin - free_from, kRedZone);
  mark(begin, bytes, kLive);
  mark(begin + bytes, end - begin - bytes, kRedZone);
  std::memset(reinterpret_cast<void*>(begin), kUninitializedByte, bytes);
}

void mark(std::uintptr_t begin, std::size_t bytes, Validity v) { std::memset(validity_of(begin), v, bytes); }

std::string describe_address(std::uintptr_t a, const Block* block) {
  if (in_shared(a) && block) {
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(block->shared_base);
    const SharedVariable* nearest = nullptr;
    for (const SharedVariable& v : block->shared_variables) {
      if (a >= base + v.offset && a < base + v.offset + v.bytes)
        return "shared variable '" + std::string(v.name) + "' (declared at " + v.declared.file + ":" +
               std::to_string(v.declared.line) + "), byte " + std::to_string(a - base - v.offset) + " of " +
               std::to_string(v.bytes);
      if (a >= base + v.offset + v.bytes && (!nearest || v.offset > nearest->offset)) nearest = &v;
    }
    if (nearest)
      return "shared memory " + std::to_string(a - base - nearest->offset - nearest->bytes) +
             " bytes past the end of '" + nearest->name + "' (" + std::to_string(nearest->bytes) +
             " bytes, declared at " + nearest->declared.file + ":" + std::to_string(nearest->declared.line) + ")";
    return "shared memory at offset " + std::to_string(a - base) + ", outside every shared variable";
  }
  if (in_global(a)) {
    const Allocation* alloc = allocation_near(a);
    if (!alloc) return "global memory that no cudaMalloc returned";
    std::string where = " allocated at " + std::string(alloc->site.file ? alloc->site.file : "?") + ":" +
                        std::to_string(alloc->site.line);
    if (alloc->freed) return "a buffer of " + std::to_string(alloc->bytes) + " bytes" + where + ", already freed";
    if (a >= alloc->begin + alloc->bytes)
      return std::to_string(a - alloc->begin - alloc->bytes) + " bytes past the end of a " +
             std::to_string(alloc->bytes) + "-byte buffer" + where;
    return "byte " + std::to_string(a - alloc->begin) + " of a " + std::to_string(alloc->bytes) + "-byte buffer" +
           where;
  }
  return "host memory";
}

}  // namespace scanlab::sim::detail
