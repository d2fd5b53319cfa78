#include "memory/memory.hpp"
#include "memory/spilled_checks.hpp"

#include <sys/mman.h>
#include <sys/resource.h>

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

// Whether the process's address-space limit (RLIMIT_AS) leaves room for the reservation.
bool room_for_reservation() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return true;
  return limit.rlim_cur > kWindowBytes + kGlobalBytes + kSharedBytes;
}

// Before any thread of the program runs. A program under an address-space limit too small for
// it (host code alone, under a grader's limit) starts all the same: what uses device memory
// reserves it then, and says that it cannot.
__attribute__((constructor(101))) void reserve_at_startup() {
  if (room_for_reservation()) ensure_reserved();
}

}  // namespace

void ensure_reserved() {
  static std::once_flag once;
  std::call_once(once, [] {
    // Readable and writable throughout, guards included: an access to a guard is reported by the
    // hook in front of it and then happens, harmlessly, where no buffer lives.
    regions.window_begin = reinterpret_cast<std::uintptr_t>(reserve(kWindowBytes));
    regions.global_begin = regions.window_begin + kGuardBytes;
    regions.shared_begin = regions.global_begin + kGlobalBytes;
    regions.global_validity = static_cast<std::uint8_t*>(reserve(kGlobalBytes));
    prefer_huge_pages(reinterpret_cast<void*>(regions.global_begin), kGlobalBytes);
    prefer_huge_pages(regions.global_validity, kGlobalBytes);
    regions.shared_validity = static_cast<std::uint8_t*>(reserve(kSharedBytes));
    regions.ready = true;
  });
}

void prefer_huge_pages(void* begin, std::size_t bytes) {
#ifdef MADV_HUGEPAGE
  madvise(begin, bytes, MADV_HUGEPAGE);
#else
  (void)begin, (void)bytes;
#endif
}

void release_whole_pages(void* begin, std::size_t bytes) {
  const auto [first, last] = whole_pages(begin, bytes);
  if (last <= first) return;
  madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
  spill::zero_in_file(reinterpret_cast<void*>(first), last - first);  // MADV_DONTNEED leaves a file's pages as they were
}

unsigned char* shared_arena(unsigned slot) {
  ensure_reserved();
  return reinterpret_cast<unsigned char*>(regions.shared_begin + std::size_t{slot} * kSharedArenaBytes);
}

void open_buffer(std::uintptr_t free_from, std::uintptr_t begin, std::size_t bytes, std::uintptr_t end,
                 Validity contents) {
  mark(free_from, begin - free_from, kRedZone);
  mark(begin, bytes, contents);
  mark(begin + bytes, end - begin - bytes, kRedZone);
  std::memset(reinterpret_cast<void*>(free_from), kUninitializedByte, end - free_from);
}

namespace {
unsigned char shared_garbage = kUninitializedByte;  // set only between launches, by the launching thread
}  // namespace

unsigned char shared_garbage_byte() { return shared_garbage; }
void set_shared_garbage_byte(unsigned char byte) { shared_garbage = byte; }

void mark(std::uintptr_t begin, std::size_t bytes, Validity v) { std::memset(validity_of(begin), v, bytes); }

void close_buffer(std::uintptr_t begin, std::size_t bytes) {
  mark(begin, bytes, kFreed);
  release_whole_pages(reinterpret_cast<void*>(begin), bytes);
  release_whole_pages(validity_of(begin), bytes);
}

void mark_written(const void* begin, std::size_t bytes) {
  mark(reinterpret_cast<std::uintptr_t>(begin), bytes, kLive);
}

void copy_written_state(void* destination, const void* source, std::size_t bytes) {
  std::memmove(validity_of(reinterpret_cast<std::uintptr_t>(destination)),
               validity_of(reinterpret_cast<std::uintptr_t>(source)), bytes);
}

}  // namespace scanlab::sim::detail::memory
