#include "checks/memory_check.hpp"

#include <string>

#include "checks/race_detector.hpp"
#include "checks/race_report.hpp"
#include "findings/report.hpp"
#include "memory/memory.hpp"
#include "threads/block.hpp"
#include "threads/scheduler.hpp"
#include "threads/shared_memory.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::memory_check {
namespace {

using race_detector::kAtomic;
using race_detector::kBlind;
using race_detector::kWrite;

bool in_a_buffer(std::uint8_t v) { return v == memory::kLive || v == memory::kUnwritten; }

const char* space_of(std::uintptr_t a) {
  if (memory::in_shared(a)) return "shared";
  return memory::in_global(a) ? "global" : "device";
}

std::string byte_count(std::size_t bytes) { return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes"); }

// The block of thread t made kOutOfBoundsLimit out-of-bounds accesses: it stops there.
__attribute__((noinline, cold)) void stop_wild_block(Thread* t, std::uintptr_t pc) {
  Finding f;
  f.kind = ReportKind::out_of_bounds;
  f.headline = "block stopped after " + std::to_string(kOutOfBoundsLimit) + " out-of-bounds accesses";
  f.parties.push_back(party("last access", t, locate(pc)));
  f.details.push_back("a loop probably runs on a value read out of bounds (the fill pattern of fresh memory): "
                      "the out-of-bounds access reported first is the bug");
  f.details.push_back("the block was stopped (a GPU stops the whole kernel at its first illegal address), and the "
                      "other blocks go on, so that what they do is checked too; the launch reports "
                      "cudaErrorIllegalAddress");
  report(f);
  scheduler::stop_block(t, cudaErrorIllegalAddress);
}

void report_out_of_bounds(Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags,
                          std::uintptr_t pc) {
  scheduler::fail_later(*t->block, cudaErrorIllegalAddress);
  if (++t->block->checks.out_of_bounds >= kOutOfBoundsLimit) stop_wild_block(t, pc);
  const SourceLocation where = locate(pc);
  if (!first_time_at(ReportKind::out_of_bounds, where, pc)) return;
  Finding f;
  f.kind = ReportKind::out_of_bounds;
  f.headline = std::string("out-of-bounds ") + ((flags & kWrite) ? "write" : "read") + " of " + byte_count(bytes) +
               " in " + space_of(address) + " memory";
  f.parties.push_back(party((flags & kAtomic) ? "atomic" : (flags & kWrite) ? "write" : "read", t, where));
  f.details.push_back("location: " + shared_memory::describe_address(address, *t->block));
  f.details.push_back("the kernel goes on, as it may on a GPU, without touching any buffer; the launch reports "
                      "cudaErrorIllegalAddress");
  report(f);
}

void report_never_written(Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags,
                          std::uintptr_t pc) {
  const SourceLocation where = locate(pc);
  if (!first_time_at(ReportKind::uninitialized_read, where, pc)) return;
  const bool shared = memory::in_shared(address);
  Finding f;
  f.kind = ReportKind::uninitialized_read;
  f.headline = std::string((flags & kAtomic) ? "atomic update of " : "read of ") + byte_count(bytes) + " of " +
               (shared ? "shared" : "global") + " memory that nothing wrote";
  f.parties.push_back(party((flags & kAtomic) ? "atomic" : "read", t, where));
  f.details.push_back("location: " + shared_memory::describe_address(address, *t->block));
  if (!shared) f.memory = race_detector::global_memory_subject(address);
  f.details.push_back(shared ? "no thread of this block wrote these bytes since the block started: shared memory "
                               "holds garbage when a block starts; write it (then __syncthreads()) before reading it"
                             : "nothing wrote these bytes since cudaMalloc: fresh device memory holds garbage (often "
                               "zeros on a GPU, so the program may pass there); set it with cudaMemset, cudaMemcpy "
                               "or a kernel first");
  report(f);
}

// An out-of-bounds read finds the fill pattern of fresh memory in every byte outside a buffer,
// whatever an earlier out-of-bounds write left there.
void refill_outside_buffers(std::uintptr_t address, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) {
    const std::uintptr_t a = address + i;
    if (!memory::in_window(a)) continue;
    if (memory::in_buffer_ranges(a) && in_a_buffer(*memory::validity_of(a))) continue;
    *reinterpret_cast<unsigned char*>(a) = memory::kUninitializedByte;
  }
}

}  // namespace

void begin_block(Block& b) { b.checks.out_of_bounds = 0; }

bool check_irregular(Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags, std::uintptr_t pc) {
  bool in_bounds = memory::in_buffer_ranges(address) && memory::in_buffer_ranges(address + bytes - 1);
  bool all_unwritten = true;
  if (in_bounds) {
    const std::uint8_t* v = memory::validity_of(address);
    for (std::size_t i = 0; i < bytes && in_bounds; ++i) {
      in_bounds = in_a_buffer(v[i]);
      all_unwritten = all_unwritten && v[i] == memory::kUnwritten;
    }
  }
  const bool reads = !(flags & kWrite) || ((flags & kAtomic) && !(flags & kBlind));
  if (!in_bounds) {
    report_out_of_bounds(t, address, bytes, flags, pc);
    if (reads) refill_outside_buffers(address, bytes);
    return false;
  }
  if (reads && all_unwritten) report_never_written(t, address, bytes, flags, pc);
  if (flags & kWrite) memory::mark_written(reinterpret_cast<void*>(address), bytes);
  return true;
}

}  // namespace scanlab::sim::detail::memory_check
