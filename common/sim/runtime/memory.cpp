#include "memory.hpp"

#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace scanlab::sim::detail::memory {

Regions regions;

namespace {

void* reserve(std::size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    std::fprintf(stderr, "scanlab-sim: cannot reserve %zu MiB of address space for device memory\n", bytes >> 20);
    std::abort();
  }
  return p;
}

__attribute__((constructor(101))) void reserve_at_startup() { ensure_reserved(); }

}  // namespace

void ensure_reserved() {
  static std::once_flag once;
  std::call_once(once, [] {
    regions.global_begin = reinterpret_cast<std::uintptr_t>(reserve(kGlobalBytes));
    regions.shared_begin = reinterpret_cast<std::uintptr_t>(reserve(kSharedBytes));
    regions.global_validity = static_cast<std::uint8_t*>(reserve(kGlobalBytes));
    regions.shared_validity = static_cast<std::uint8_t*>(reserve(kSharedBytes));
    regions.ready = true;
  });
}

unsigned char* shared_arena(unsigned slot) {
  ensure_reserved();
  return reinterpret_cast<unsigned char*>(regions.shared_begin + std::size_t{slot} * kSharedArenaBytes);
}

void open_buffer(std::uintptr_t free_from, std::uintptr_t begin, std::size_t bytes, std::uintptr_t end) {
  mark(free_from, begin - free_from, kRedZone);
  mark(begin, bytes, kLive);
  mark(begin + bytes, end - begin - bytes, kRedZone);
  std::memset(reinterpret_cast<void*>(begin), kUninitializedByte, bytes);
}

void mark(std::uintptr_t begin, std::size_t bytes, Validity v) { std::memset(validity_of(begin), v, bytes); }

}  // namespace scanlab::sim::detail::memory
