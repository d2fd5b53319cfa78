// What compute-sanitizer's memcheck and initcheck report, for every access of kernel code that
// is not the plain case (live device memory that was written): accesses outside every buffer,
// in a red zone, a freed buffer or far away (a wild index), and reads of bytes that nothing
// wrote since cudaMalloc (global memory) or since the block started (shared memory).
//
// An out-of-bounds access does not stop the kernel, as a small overrun does not on a GPU: it
// is reported once per source line (of each function), the launch ends with
// cudaErrorIllegalAddress, and the kernel runs on, so that a race later in it is found too.
// What it touches is no buffer's: a read of it finds the fill pattern of fresh memory, whatever
// an earlier out-of-bounds write stored there, so such writes are in effect dropped.
//
// A value read out of bounds is often a loop's bound: the fill pattern makes such a loop run
// billions of times. A block that has made kOutOfBoundsLimit out-of-bounds accesses is stopped
// (its findings printed, the launch ends with cudaErrorIllegalAddress), as a GPU stops a
// kernel at its first illegal address.
//
// A read is reported as never written when none of its bytes was written: a struct copy
// that reads the padding of written fields is not a bug. Atomics that read (atomicAdd, CAS,
// ...) are reads; atomicExch and an atomic store are writes only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "findings/report.hpp"
#include "threads/block.hpp"

namespace scanlab::sim::detail::memory_check {

constexpr std::uint32_t kOutOfBoundsLimit = 1u << 16;

void begin_block(Block& b);

// Called for an access in the device window that memory::all_live() did not pass. Returns
// whether the access touches live buffers only, and is to be checked for races.
bool check_irregular(Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags, std::uintptr_t pc);

// Reads of shared memory that nothing wrote, held to the end of the launch instead of reported
// while hold_shared_garbage_reads(true), so that the launch can learn whether the garbage read
// reaches its results (launch/garbage_judgement.hpp). One per source line (of each function),
// that of the lowest-numbered block that made it, so that which one is kept does not depend on
// how blocks ran side by side.
struct HeldRead {
  Finding finding;
  SourceLocation where;
  std::uintptr_t pc = 0;
  unsigned block = 0;
  KeptText* kept = nullptr;  // what a time limit's signal prints while the launch runs
};
// The text a time limit's signal prints for a held read, which the launch's end never judged.
KeptText* keep_unjudged_until_printed(const HeldRead& read);
void hold_shared_garbage_reads(bool hold);
std::vector<HeldRead> take_held_garbage_reads();  // in the order of their lines
// Reports a held read, once per line as any never-written read is.
void report_held_read(const HeldRead& read);

}  // namespace scanlab::sim::detail::memory_check
