// Device memory as the simulator lays it out: one reserved address range for global memory
// (cudaMalloc) and one for the shared memory arenas of resident blocks, each with a byte map of
// what may be touched and what was written. Fixed ranges make "is this device memory?" one
// comparison, which every instrumented access of student code asks.
//
// Both ranges sit in one window between two wide guard ranges that no buffer ever takes: a
// wild index (`totals[-1u]`, 16 GiB past its buffer) lands in the window, where the access is
// reported, instead of in whatever the system mapped there (or nothing, and a SIGSEGV).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "base/device_limits.hpp"

namespace scanlab::sim::detail::memory {

constexpr std::size_t kGlobalBytes = std::size_t{8} << 30;  // address space; pages are taken when touched
constexpr std::size_t kSharedArenaBytes = 256 * 1024;       // > the opt-in maximum per block, plus red zones
constexpr std::size_t kSharedBytes = kSharedArenaBytes * kMaxCoresidentBlocks;
// A 32-bit index times a 16-byte element reaches 64 GiB either way from its buffer.
constexpr std::size_t kGuardBytes = std::size_t{64} << 30;
constexpr std::size_t kWindowBytes = kGuardBytes + kGlobalBytes + kSharedBytes + kGuardBytes;

// Fresh device memory holds garbage on a GPU. Every new buffer, global or shared, is filled with
// this byte, so that a kernel reading what nobody wrote computes something visibly wrong here too.
constexpr unsigned char kUninitializedByte = 0xCD;
// What a shared variable holds where no thread of its block wrote it: kUninitializedByte, except
// while a launch runs again with other garbage (launch/garbage_judgement.hpp), to learn whether
// the garbage its threads read reaches its results.
unsigned char shared_garbage_byte();
void set_shared_garbage_byte(unsigned char byte);

// How buffers sit in device memory, global and shared alike: each starts at a multiple of its
// alignment and is followed by a red zone that no other buffer takes, so that running off its
// end is reported instead of silently reaching the next buffer.
struct BufferLayout {
  std::size_t alignment;  // the least alignment of a buffer
  std::size_t red_zone;   // the least gap after a buffer

  // Where a buffer goes when everything below `free_from` is taken.
  constexpr std::size_t start(std::size_t free_from, std::size_t buffer_alignment = 1) const {
    const std::size_t a = std::max(alignment, buffer_alignment);
    return (free_from + a - 1) / a * a;
  }
  // Where the red zone of a buffer of `bytes` at `start` ends.
  constexpr std::size_t end(std::size_t start, std::size_t bytes) const { return start + bytes + red_zone; }
};
constexpr BufferLayout kGlobalLayout{256, 256};  // cudaMalloc's alignment
constexpr BufferLayout kSharedLayout{16, 16};

// What a byte of device memory is, for out-of-bounds and never-written reports. A buffer's
// bytes are kUnwritten until something stores to them, then kLive.
enum Validity : std::uint8_t { kUnallocated = 0, kLive = 1, kFreed = 2, kRedZone = 3, kUnwritten = 4 };

// Shared memory arenas start with a red zone of their own, so that `x[-1]` of a block's first
// variable is reported in that block's shared memory; a multiple of the 32 banks' 128 bytes, so
// that bank numbers counted from the arena's start are those of the offsets on a GPU.
constexpr std::size_t kSharedLeadingRedZone = 128;

struct Regions {
  std::uintptr_t window_begin = 0;
  std::uintptr_t global_begin = 0;
  std::uintptr_t shared_begin = 0;
  std::uint8_t* global_validity = nullptr;
  std::uint8_t* shared_validity = nullptr;
  bool ready = false;
};
extern Regions regions;
void ensure_reserved();

// Global memory, shared memory or the guards around them: any address a kernel may have meant
// as device memory.
inline bool in_window(std::uintptr_t a) { return a - regions.window_begin < kWindowBytes; }
inline bool in_global(std::uintptr_t a) { return a - regions.global_begin < kGlobalBytes; }
inline bool in_shared(std::uintptr_t a) { return a - regions.shared_begin < kSharedBytes; }
// Memory no other block can touch: shared memory, and a thread's own stack (local memory; a
// fiber's stack is 64 KiB, so anything that near the caller's frame is on it). Everything else,
// global memory and __device__ variables, other blocks see.
inline bool block_private(std::uintptr_t a) {
  constexpr std::uintptr_t kStackReach = 64 * 1024;
  const auto frame = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  return in_shared(a) || a - (frame - kStackReach) < 2 * kStackReach;
}
// Global or shared memory, where buffers are: not a guard.
inline bool in_buffer_ranges(std::uintptr_t a) { return a - regions.global_begin < kGlobalBytes + kSharedBytes; }
inline std::uint8_t* validity_of(std::uintptr_t a) {
  return in_global(a) ? regions.global_validity + (a - regions.global_begin)
                      : regions.shared_validity + (a - regions.shared_begin);
}
// True when all of [a, a+n) is live device memory (global or shared) that was written: the
// one test on the path of every access; whatever else is looked at only when it fails.
inline bool all_live(std::uintptr_t a, std::size_t n) {
  const std::uint8_t* v = validity_of(a);
  // The sizes of int, float, double and pointers: one load of their validity bytes.
  if (n == 4) {
    std::uint32_t bytes;
    std::memcpy(&bytes, v, sizeof bytes);
    return bytes == kLive * 0x01010101u;
  }
  if (n == 8) {
    std::uint64_t bytes;
    std::memcpy(&bytes, v, sizeof bytes);
    return bytes == kLive * 0x0101010101010101ull;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (v[i] != kLive) return false;
  return true;
}

// Asks for 2 MiB pages where a range is taken in large runs (buffers, their byte maps and race
// shadows): a 4 KiB page of fresh memory costs a page fault, and faults of several OS threads
// at once wait for each other in the kernel, which made a checked scan on two cores spend most of
// its time in the system. Only a hint: nothing changes where huge pages are off.
void prefer_huge_pages(void* begin, std::size_t bytes);
// Gives the whole pages inside [begin, begin+bytes) back to the system; they read as zeros when
// touched again. What a freed buffer leaves (its bytes, byte map and race shadow) is released so:
// a program that frees and allocates ever larger buffers does not keep every size's shadow.
void release_whole_pages(void* begin, std::size_t bytes);
// The whole 4 KiB pages inside [begin, begin+bytes): [first, last), none where last <= first.
struct WholePages {
  std::uintptr_t first, last;
};
inline WholePages whole_pages(const void* begin, std::size_t bytes) {
  constexpr std::uintptr_t kPage = 4096;
  const auto b = reinterpret_cast<std::uintptr_t>(begin);
  return WholePages{(b + kPage - 1) & ~(kPage - 1), (b + bytes) & ~(kPage - 1)};
}

// The shared memory arena of a resident slot.
unsigned char* shared_arena(unsigned slot);

// Makes [begin, begin+bytes) a fresh buffer, filled with kUninitializedByte and live (kUnwritten,
// or kLive when its contents count as written), and the alignment padding [free_from, begin)
// and [begin+bytes, end) its red zone, filled the same way.
void open_buffer(std::uintptr_t free_from, std::uintptr_t begin, std::size_t bytes, std::uintptr_t end,
                 Validity contents = kUnwritten);
// Marks [begin, begin+bytes) of device memory as `v`.
void mark(std::uintptr_t begin, std::size_t bytes, Validity v);
// A freed buffer's bytes and byte map: marked kFreed, and the whole pages among them released
// (their byte map then reads kUnallocated, which is reported the same way).
void close_buffer(std::uintptr_t begin, std::size_t bytes);
// What the host wrote into a buffer (cudaMemset, cudaMemcpy, ...): [begin, begin+bytes) counts as
// written. A device-to-device copy carries over which bytes of the source were written.
void mark_written(const void* begin, std::size_t bytes);
void copy_written_state(void* destination, const void* source, std::size_t bytes);

}  // namespace scanlab::sim::detail::memory
