#include "collectives/async_copy_groups.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "checks/race_detector.hpp"
#include "findings/report.hpp"
#include "memory/memory.hpp"
#include "memory/race_shadow.hpp"
#include "threads/launch.hpp"
#include "threads/scheduler.hpp"
#include "threads/shared_memory.hpp"

namespace scanlab::sim::detail::async_copy_groups {
namespace {

// A copy its thread issued and has not yet waited for.
struct PendingCopy {
  std::uintptr_t destination = 0;
  std::uintptr_t source = 0;
  std::size_t bytes = 0;
  std::size_t zeros = 0;          // the last bytes of the destination, filled with zeros
  std::uintptr_t issued_at = 0;   // code address
  std::uint32_t group = 0;        // groups its thread had committed before it
  std::uint32_t generation = 0;   // the block's race-clock generation just after the issue
};

struct ThreadCopies {
  std::vector<PendingCopy> in_flight;
  std::uint32_t committed = 0;
};

// A block's copies, by thread. Kept here by block rather than in the block itself: only kernels
// that use cp.async pay for it. A block's entry is touched only by its own threads and its
// hooks, one at a time; the lock guards the table, which blocks on other OS threads change.
using BlockCopies = std::unordered_map<unsigned, ThreadCopies>;
std::mutex table_mutex;
std::unordered_map<const Block*, BlockCopies> table;

BlockCopies& copies_of(const Block& b) {
  std::lock_guard<std::mutex> lock(table_mutex);
  return table[&b];  // a node's address outlives later insertions
}

[[noreturn]] void refuse(Thread* t, ReportKind kind, const std::string& headline, std::uintptr_t destination,
                         std::uintptr_t source, const std::string& fix, std::uintptr_t pc) {
  // Every thread of every block reaches the same line: the first one reports it.
  if (!first_time(kind, pc, 0)) scheduler::abort_kernel(t, cudaErrorLaunchFailure);
  Finding f;
  f.kind = kind;
  f.headline = headline;
  f.parties.push_back(party("cp.async copy", t, locate(pc)));
  f.details.push_back("destination: " + shared_memory::describe_address(destination, *t->block));
  f.details.push_back("source: " + shared_memory::describe_address(source, *t->block));
  f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchFailure");
  f.fix = fix;
  report(f);
  scheduler::abort_kernel(t, cudaErrorLaunchFailure);
}

// What the GPU refuses of a copy's shape, reported at the program's line.
void refuse_shape(Thread* t, std::uintptr_t destination, std::uintptr_t source, std::size_t bytes, std::size_t zeros,
                 CopyShape shape, std::size_t alignment, std::uintptr_t pc) {
  if (!memory::in_shared(destination) || !memory::in_global(source))
    refuse(t, ReportKind::unsupported,
           "an asynchronous copy (cp.async) other than from global memory to shared memory is not simulated",
           destination, source,
           "cp.async copies from global memory into shared memory: copy other memory with plain loads and stores",
           pc);
  if (shape == CopyShape::primitive && bytes != 4 && bytes != 8 && bytes != 16)
    refuse(t, ReportKind::api_misuse, "__pipeline_memcpy_async of " + std::to_string(bytes) + " bytes", destination,
           source, "a cp.async copy moves 4, 8 or 16 bytes: copy larger pieces as several calls", pc);
  if (zeros > bytes)
    refuse(t, ReportKind::api_misuse,
           "__pipeline_memcpy_async of " + std::to_string(bytes) + " bytes that fills " + std::to_string(zeros) +
               " of them with zeros",
           destination, source, "the zero fill counts the last bytes of the copy: at most its size", pc);
  if (shape != CopyShape::any && (destination % alignment != 0 || source % alignment != 0 || bytes % alignment != 0)) {
    const std::string what =
        shape == CopyShape::primitive
            ? "__pipeline_memcpy_async of " + std::to_string(bytes) + " bytes"
            : "cuda::memcpy_async with cuda::aligned_size_t<" + std::to_string(alignment) + ">";
    refuse(t, ReportKind::api_misuse,
           "a misaligned asynchronous copy: " + what + " needs both addresses and the size to be multiples of " +
               std::to_string(alignment) + " bytes",
           destination, source,
           shape == CopyShape::primitive
               ? "align the shared array and the global element to the copy's size (alignas(16) for 16-byte copies), "
                 "or copy smaller pieces"
               : "promise only the alignment the addresses and the size have, or align the shared array (alignas)",
           pc);
  }
}

// One granule-sized piece of [address, address + bytes) at a time: the shadow's unit.
template <class Each>
void for_each_piece(std::uintptr_t address, std::size_t bytes, Each&& each) {
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t piece =
        std::min(bytes - done, race_detector::kGranule - (address + done) % race_detector::kGranule);
    each(address + done, piece);
    done += piece;
  }
}

std::uint8_t mask_of(std::uintptr_t address, std::size_t piece) {
  return static_cast<std::uint8_t>(((1u << piece) - 1) << (address % race_detector::kGranule));
}

// An access of the copy's block made after its issue (and before its landing), as the shadow
// remembers it: the other side of a race with the copy.
struct Intruder {
  bool found = false;
  bool writes = false;
  unsigned thread = 0;
  std::uintptr_t pc = 0;
  std::uintptr_t address = 0;
};

Intruder after_issue(const Block& b, const race_detector::SharedRecord& r, const PendingCopy& c, std::uint8_t mask,
                     std::uintptr_t address) {
  if (r.run != b.race.run || r.warp_epoch < c.generation || (r.by.mask() & mask) == 0) return {};
  return {true, (r.by.flags() & race_detector::kWrite) != 0, r.by.thread(), race_detector::code_ids.address(r.pc),
          address};
}

// The first read and the first write of the destination after the issue.
struct DestinationIntruders {
  Intruder read;
  Intruder written;
};
DestinationIntruders destination_intruders(const Block& b, const PendingCopy& c) {
  DestinationIntruders found;
  for_each_piece(c.destination, c.bytes, [&](std::uintptr_t at, std::size_t piece) {
    const auto& cell =
        race_detector::shared_shadow[(at - memory::regions.shared_begin) / race_detector::kGranule];
    const std::uint8_t mask = mask_of(at, piece);
    if (!found.written.found) found.written = after_issue(b, cell.write, c, mask, at);
    for (const auto& r : cell.read)
      if (!found.read.found) found.read = after_issue(b, r, c, mask, at);
  });
  return found;
}

// The first write of the block to the source after the issue.
Intruder source_intruder(const Block& b, const PendingCopy& c) {
  Intruder written;
  for_each_piece(c.source, c.bytes - c.zeros, [&](std::uintptr_t at, std::size_t piece) {
    if (written.found) return;
    const std::uintptr_t granule = (at - memory::regions.global_begin) / race_detector::kGranule;
    race_detector::granule_locks.lock(granule);
    const race_detector::GlobalRecord w = race_detector::unpack_cell(granule).write;
    race_detector::granule_locks.unlock(granule);
    if (w.launch != race_detector::current_launch || w.block != b.linear || w.warp_epoch < c.generation ||
        (w.by.mask() & mask_of(at, piece)) == 0 || !(w.by.flags() & race_detector::kWrite))
      return;
    written = {true, true, w.by.thread(), race_detector::code_ids.address(w.pc), at};
  });
  return written;
}

void report_intruder(Thread* t, const PendingCopy& c, const Intruder& i, bool at_source) {
  if (!first_time(ReportKind::race, c.issued_at, i.pc)) return;
  const Block& b = *t->block;
  const bool own = i.thread == t->linear;
  Finding f;
  f.kind = ReportKind::race;
  if (at_source)
    f.headline = "data race (the source of an asynchronous copy written while the copy is in flight) on global memory";
  else if (i.writes)
    f.headline = "data race (a write to the destination of an asynchronous copy in flight) on shared memory";
  else
    f.headline = "data race (a read of an asynchronous copy's destination before the wait that covers the copy) on "
                 "shared memory";
  f.parties.push_back(party("cp.async copy", t, locate(c.issued_at)));
  f.parties.push_back(party(i.writes ? "write" : "read", &b.threads[i.thread], locate(i.pc)));
  f.details.push_back("location: " + shared_memory::describe_address(i.address, b));
  f.details.push_back("a cp.async copy may land at any moment until a wait of its thread covers its group "
                      "(__pipeline_wait_prior(N), cuda::pipeline's consumer_wait, cooperative_groups::wait); its "
                      "thread sees the data after that wait, other threads after a __syncthreads() that follows it");
  if (at_source || i.writes)
    f.fix = "leave the copy's source and destination alone until the wait that covers its group, and a "
            "__syncthreads() after it where another thread writes them";
  else if (own)
    f.fix = "wait for the copy's group before reading: __pipeline_wait_prior(N) leaves the N most recent committed "
            "groups in flight, so N must not count the group of this copy (0 waits for all)";
  else
    f.fix = "the issuing thread waits for the copy's group, then __syncthreads(), then other threads read";
  report(f);
}

// The copy lands: its destination gets the source's bytes (and its zeros), written by its thread
// at the copy's line. Accesses made since the issue are reported first.
void land(Thread* t, const PendingCopy& c) {
  if (t->block->launch->race_check && race_detector::shared_shadow) {
    // A read first: a wait that came too early (or too few groups waited for) shows as one.
    const DestinationIntruders at_destination = destination_intruders(*t->block, c);
    if (at_destination.read.found) report_intruder(t, c, at_destination.read, false);
    if (at_destination.written.found) report_intruder(t, c, at_destination.written, false);
    const Intruder at_source = source_intruder(*t->block, c);
    if (at_source.found) report_intruder(t, c, at_source, true);
  }
  for_each_piece(c.destination, c.bytes, [&](std::uintptr_t at, std::size_t piece) {
    race_detector::check_access(t, at, piece, race_detector::kWrite, c.issued_at);
  });
  const std::size_t copied = c.bytes - c.zeros;
  std::memmove(reinterpret_cast<void*>(c.destination), reinterpret_cast<const void*>(c.source), copied);
  std::memset(reinterpret_cast<void*>(c.destination + copied), 0, c.zeros);
}

void report_never_waited(Thread* t, const PendingCopy& c) {
  if (!first_time(ReportKind::api_misuse, c.issued_at, 0)) return;
  Finding f;
  f.kind = ReportKind::api_misuse;
  f.headline = "an asynchronous copy (cp.async) still in flight when its thread exited";
  f.parties.push_back(party("cp.async copy", t, locate(c.issued_at)));
  f.details.push_back("destination: " + shared_memory::describe_address(c.destination, *t->block));
  f.details.push_back("a block's shared memory is released when it ends, while the copy may still write it");
  f.fix = "before the thread exits, wait for its groups: __pipeline_wait_prior(0) (after __pipeline_commit()), "
          "cuda::pipeline's consumer_wait for each stage, or cooperative_groups::wait(group)";
  report(f);
}

}  // namespace

void check_shape(Thread* t, std::uintptr_t destination, std::uintptr_t source, std::size_t bytes, CopyShape shape,
                 std::size_t alignment, std::uintptr_t pc) {
  refuse_shape(t, destination, source, bytes, 0, shape, alignment, pc);
}

void begin_block(Block& b) {
  std::lock_guard<std::mutex> lock(table_mutex);
  table.erase(&b);
}

void end_block(Block& b) {
  BlockCopies* copies = nullptr;
  {
    std::lock_guard<std::mutex> lock(table_mutex);
    const auto found = table.find(&b);
    if (found == table.end()) return;
    copies = &found->second;
  }
  // In thread order, so that the reports come in the same order on every run. A block that a
  // finding stopped left its threads where they were: their copies are not theirs to answer for.
  std::vector<unsigned> threads;
  for (const auto& [thread, of_thread] : *copies)
    if (!b.stopped && !of_thread.in_flight.empty()) threads.push_back(thread);
  std::sort(threads.begin(), threads.end());
  for (unsigned thread : threads) {
    Thread* t = &b.threads[thread];
    const std::vector<PendingCopy>& in_flight = (*copies)[thread].in_flight;
    report_never_waited(t, in_flight.front());
    for (const PendingCopy& c : in_flight) land(t, c);
  }
  std::lock_guard<std::mutex> lock(table_mutex);
  table.erase(&b);
}

void issue(Thread* t, std::uintptr_t destination, std::uintptr_t source, std::size_t bytes, std::size_t zeros,
           CopyShape shape, std::size_t alignment, std::uintptr_t pc) {
  refuse_shape(t, destination, source, bytes, zeros, shape, alignment, pc);
  if (bytes == 0) return;
  // The zero fill replaces the last bytes of the copy, yet compute-sanitizer's memcheck checks
  // the whole source: a 16-byte copy of the array's last int is an invalid read of 16 bytes there,
  // and the launch fails under memcheck. The simulator holds the copy to the same rule.
  if (zeros > 0 && !(memory::in_buffer_ranges(source) && memory::all_live(source, bytes)))
    refuse(t, ReportKind::out_of_bounds,
           "a zero-filled asynchronous copy whose source runs past its buffer: " + std::to_string(bytes) +
               " bytes named, " + std::to_string(bytes - zeros) + " copied",
           destination, source,
           "compute-sanitizer checks every byte the copy names, the zero-filled ones too: keep the whole source inside "
           "the buffer (copy 4-byte elements, each with its own zero fill, or pad the allocation)",
           pc);
  // The copy reads its source and will write its destination: what touched either before must
  // be ordered before the issue (a stage refilled while other threads still read it is a race).
  for_each_piece(source, bytes - zeros, [&](std::uintptr_t at, std::size_t piece) {
    race_detector::check_access(t, at, piece, race_detector::kRead, pc);
  });
  for_each_piece(destination, bytes, [&](std::uintptr_t at, std::size_t piece) {
    race_detector::check_access(t, at, piece, race_detector::kWrite, pc);
  });
  ThreadCopies& mine = copies_of(*t->block)[t->linear];
  PendingCopy c;
  c.destination = destination;
  c.source = source;
  c.bytes = bytes;
  c.zeros = zeros;
  c.issued_at = pc;
  c.group = mine.committed;
  // Accesses from here on are in this generation or a later one: those the landing reports.
  c.generation = race_detector::new_generation(*t->block);
  mine.in_flight.push_back(c);
  t->stored_since_yield = true;
}

void commit(Thread* t) { ++copies_of(*t->block)[t->linear].committed; }

void wait(Thread* t, unsigned groups_left, std::uintptr_t) {
  ThreadCopies& mine = copies_of(*t->block)[t->linear];
  std::vector<PendingCopy> still;
  std::vector<PendingCopy> landing;
  for (const PendingCopy& c : mine.in_flight) {
    // Groups committed before the most recent `groups_left` ones are complete; copies not yet
    // committed are in no group, and not waited for.
    if (c.group + groups_left < mine.committed) landing.push_back(c);
    else still.push_back(c);
  }
  mine.in_flight = std::move(still);
  for (const PendingCopy& c : landing) land(t, c);
}

}  // namespace scanlab::sim::detail::async_copy_groups
