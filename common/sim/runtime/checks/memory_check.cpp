#include "checks/memory_check.hpp"

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>

#include "checks/ordering_diagnosis.hpp"
#include "checks/race_detector.hpp"
#include "checks/race_report.hpp"
#include "findings/report.hpp"
#include "memory/global_memory.hpp"
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

const char* role_of(std::uint8_t flags) { return (flags & kAtomic) ? "atomic" : (flags & kWrite) ? "write" : "read"; }

// The buffer (or shared variable) an access outside every buffer missed, for its picture: the
// nearest one, as the report's location names it. False where none is near (a wild address).
bool missed_buffer(std::uintptr_t a, const Block& b, BoundsPicture& p) {
  if (memory::in_shared(a)) {
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(b.shared.base);
    std::size_t distance = SIZE_MAX;
    for (const shared_memory::Variable& v : b.shared.variables) {
      const std::uintptr_t begin = base + v.offset, end = begin + v.bytes;
      const std::size_t d = a < begin ? begin - a : a >= end ? a - end : 0;
      if (d >= distance) continue;
      distance = d;
      p.begin = begin;
      p.buffer_cells = static_cast<long>(v.bytes / p.element_bytes);
      p.buffer = "shared variable '" + std::string(v.name) + "'";
    }
    p.space = "shared";
    return distance != SIZE_MAX;
  }
  if (!memory::in_global(a)) return false;
  std::size_t distance = SIZE_MAX;
  for (const global_memory::Buffer& buffer : global_memory::live_buffers()) {
    const std::uintptr_t end = buffer.begin + buffer.bytes;
    const std::size_t d = a < buffer.begin ? buffer.begin - a : a >= end ? a - end : 0;
    if (d >= distance) continue;
    distance = d;
    p.begin = buffer.begin;
    p.buffer_cells = static_cast<long>(buffer.bytes / p.element_bytes);
  }
  if (distance == SIZE_MAX) return false;
  // "... of a 4000-byte buffer allocated at file:30": the buffer as the location names it.
  const std::string described = global_memory::describe_address(a);
  const std::size_t of = described.find(" of a ");
  p.buffer = of == std::string::npos ? "the buffer" : "the " + described.substr(of + 6);
  p.space = "global";
  return true;
}

BoundsAccess bounds_access(const Thread* t, std::uintptr_t address, std::uint8_t flags, const SourceLocation& where,
                           const BoundsPicture& p) {
  BoundsAccess a;
  const auto offset = static_cast<long long>(address) - static_cast<long long>(p.begin);
  const long long size = p.element_bytes;
  a.cell = static_cast<long>(offset >= 0 ? offset / size : -((-offset + size - 1) / size));
  a.block[0] = t->block->index.x, a.block[1] = t->block->index.y, a.block[2] = t->block->index.z;
  a.thread = t->linear;
  a.role = role_of(flags);
  a.where = where;
  return a;
}

// A later out-of-bounds access at the line of a finding its block has not printed yet: one more
// arrow in that finding's picture, up to kBoundsAccesses. Accesses of other blocks are left out:
// their block's copy of the finding is dropped when the first one is printed.
void add_to_picture(const Thread* t, std::uintptr_t address, std::uint8_t flags, const SourceLocation& where) {
  if (!pending_findings) return;
  for (PendingFinding& item : pending_findings->items) {
    Finding& f = item.finding;
    if (f.kind != ReportKind::out_of_bounds || !f.bounds_picture || f.parties.empty()) continue;
    const SourceLocation& first = f.parties.front().where;
    if (first.file != where.file || first.line != where.line || first.function != where.function) continue;
    BoundsPicture& p = *f.bounds_picture;
    const BoundsAccess a = bounds_access(t, address, flags, where, p);
    for (const BoundsAccess& seen : p.accesses)
      if (seen.cell == a.cell && seen.thread == a.thread && seen.role == a.role) return;
    if (p.accesses.size() < kBoundsAccesses) p.accesses.push_back(a);
    else p.truncated = true;
    return;
  }
}

void report_out_of_bounds(Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags,
                          std::uintptr_t pc) {
  scheduler::fail_later(*t->block, cudaErrorIllegalAddress);
  if (++t->block->checks.out_of_bounds >= kOutOfBoundsLimit) stop_wild_block(t, pc);
  const SourceLocation where = locate(pc);
  if (!first_time_at(ReportKind::out_of_bounds, where, pc)) {
    add_to_picture(t, address, flags, where);
    return;
  }
  Finding f;
  f.kind = ReportKind::out_of_bounds;
  f.headline = std::string("out-of-bounds ") + ((flags & kWrite) ? "write" : "read") + " of " + byte_count(bytes) +
               " in " + space_of(address) + " memory";
  f.parties.push_back(party(role_of(flags), t, where));
  f.details.push_back("location: " + shared_memory::describe_address(address, *t->block));
  f.details.push_back("the kernel goes on, as it may on a GPU, without touching any buffer; the launch reports "
                      "cudaErrorIllegalAddress");
  f.fix = shared_memory::fix_past_dynamic_memory(address, *t->block);
  BoundsPicture picture;
  picture.element_bytes = static_cast<unsigned>(bytes ? bytes : 1);
  if (missed_buffer(address, *t->block, picture)) {
    picture.accesses.push_back(bounds_access(t, address, flags, where, picture));
    f.bounds_picture = std::move(picture);
  }
  report(f);
}

// Held reads of shared memory that nothing wrote, by place (file, line and function, or code
// address); see hold_shared_garbage_reads.
std::mutex held_mutex;
bool holding = false;
std::map<std::tuple<std::string, unsigned, std::string, std::uintptr_t>, HeldRead> held_reads;

auto held_key(const SourceLocation& where, std::uintptr_t pc) {
  return std::make_tuple(where.file, where.line, where.function, where.file.empty() ? pc : 0);
}

void report_never_written(Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags,
                          std::uintptr_t pc) {
  if (findings_muted()) return;
  const SourceLocation where = locate(pc);
  const bool shared = memory::in_shared(address);
  const bool hold = shared && holding;
  if (hold) {
    std::lock_guard<std::mutex> lock(held_mutex);
    const auto it = held_reads.find(held_key(where, pc));
    if (it != held_reads.end() && it->second.block <= t->block->linear) return;
  } else if (!first_time_at(ReportKind::uninitialized_read, where, pc)) {
    return;
  }
  Finding f;
  f.kind = ReportKind::uninitialized_read;
  f.headline = std::string((flags & kAtomic) ? "atomic update of " : "read of ") + byte_count(bytes) + " of " +
               (shared ? "shared" : "global") + " memory that nothing wrote";
  f.parties.push_back(party((flags & kAtomic) ? "atomic" : "read", t, where));
  f.details.push_back("location: " + shared_memory::describe_address(address, *t->block));
  if (!shared) f.memory = global_memory::subject_of(address);
  // A read after a wait that ordered nothing: the wait is what went wrong, not a missing write.
  const bool explained = shared && ordering_diagnosis::explain_unwritten_read(t, pc, f);
  if (!explained)
    f.details.push_back(shared ? "no thread of this block wrote these bytes since the block started: shared memory "
                               "holds garbage when a block starts; write it (then __syncthreads()) before reading it"
                             : "nothing wrote these bytes since cudaMalloc: fresh device memory holds garbage (often "
                               "zeros on a GPU, so the program may pass there); set it with cudaMemset, cudaMemcpy "
                               "or a kernel first");
  if (hold) {
    std::lock_guard<std::mutex> lock(held_mutex);
    HeldRead& held = held_reads[held_key(where, pc)];
    if (held.finding.parties.empty() || t->block->linear < held.block) {
      printed(held.kept);
      held = HeldRead{std::move(f), where, pc, t->block->linear};
      held.kept = keep_unjudged_until_printed(held);
    }
    return;
  }
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

void hold_shared_garbage_reads(bool hold) {
  std::lock_guard<std::mutex> lock(held_mutex);
  holding = hold;
}

std::vector<HeldRead> take_held_garbage_reads() {
  std::lock_guard<std::mutex> lock(held_mutex);
  std::vector<HeldRead> reads;
  for (auto& [place, read] : held_reads) reads.push_back(std::move(read));
  held_reads.clear();
  return reads;
}

KeptText* keep_unjudged_until_printed(const HeldRead& read) {
  Finding unjudged = read.finding;
  unjudged.details.push_back("not judged: the program was stopped before the launch ended, so whether the garbage "
                             "reaches the kernel's results is not known");
  return keep_until_printed(unjudged);
}

void report_held_read(const HeldRead& read) {
  if (first_time_at(ReportKind::uninitialized_read, read.where, read.pc)) report(read.finding);
}

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
