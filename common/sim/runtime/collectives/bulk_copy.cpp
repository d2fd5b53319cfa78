#include "collectives/bulk_copy.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "checks/barrier_names.hpp"
#include "checks/race_detector.hpp"
#include "collectives/async_barrier.hpp"
#include "collectives/async_copy_groups.hpp"
#include "findings/report.hpp"
#include "memory/memory.hpp"
#include "memory/race_shadow.hpp"
#include "threads/scheduler.hpp"
#include "threads/shared_memory.hpp"

namespace scanlab::sim::detail::bulk_copy {
namespace {

// A bulk copy moves whole 16-byte granules between 16-byte aligned addresses.
constexpr std::size_t kGranule = 16;
// What a copy's own writes carry in the shadow, so that a later bulk copy of the same bytes needs
// no proxy fence: a plain write's flags with the blind bit, which only atomics otherwise use.
constexpr std::uint8_t kAsyncProxy = race_detector::kBlind;

bool copyable(Thread* t, std::uintptr_t destination, bool to_shared, std::uintptr_t source, std::size_t bytes,
              std::uintptr_t pc) {
  std::string wrong;
  if (to_shared ? !memory::in_shared(destination) || !memory::in_global(source)
                : !memory::in_global(destination) || !memory::in_shared(source))
    wrong = to_shared ? "copies from global memory to shared memory" : "copies from shared memory to global memory";
  else if (destination % kGranule != 0 || source % kGranule != 0 || bytes % kGranule != 0)
    wrong = "needs 16-byte aligned addresses and a size that is a multiple of 16 bytes";
  if (wrong.empty()) return true;
  Finding f;
  f.kind = ReportKind::api_misuse;
  f.headline = "a bulk asynchronous copy of " + std::to_string(bytes) + " bytes that the GPU refuses: this form " +
               wrong;
  f.parties.push_back(party("bulk copy", t, locate(pc)));
  f.details.push_back("destination: " + shared_memory::describe_address(destination, *t->block));
  f.details.push_back("source: " + shared_memory::describe_address(source, *t->block));
  f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchFailure");
  report(f);
  scheduler::abort_kernel(t, cudaErrorLaunchFailure);
  return false;
}

// The copy's accesses, word by word, as the race detector and the memory check see them: made
// for thread t at the copy's own line.
void check_words(Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags, std::uintptr_t pc) {
  for (std::size_t i = 0; i < bytes; i += race_detector::kGranule)
    race_detector::check_access(t, address + i, race_detector::kGranule, flags, pc);
}

// The store's source was written after the copy was issued and before its wait: the copy may
// have read either value.
void report_source_changed(Thread* t, const PendingStore& s, std::size_t offset, std::uintptr_t wait_pc) {
  if (!first_time(ReportKind::race, s.issued_at, wait_pc)) return;
  Finding f;
  f.kind = ReportKind::race;
  f.headline = "data race (write while a bulk copy reads it) on shared memory";
  f.parties.push_back(party("bulk copy", t, locate(s.issued_at)));
  f.parties.push_back(party("wait_group", t, locate(wait_pc)));
  f.details.push_back("location: " + shared_memory::describe_address(s.source + offset, *t->block));
  if (s.released_at) {
    // The program ordered the next writer after an arrival that came before the store's reads.
    f.details.push_back("the issuing thread's arrival on " + barrier_names::barrier(*t->block, s.released_barrier) +
                        " at " + barrier_names::place(s.released_at, locate(s.issued_at).function) +
                        " released the stage while the copy still read it, and the stage was written again before "
                        "the wait at " + barrier_names::line_of(wait_pc));
    f.fix = "wait for the store's reads before releasing the stage: cuda::ptx::cp_async_bulk_commit_group() and "
            "cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{}) after the copy, by the thread that issued "
            "it, before the arrival at " + barrier_names::line_of(s.released_at);
  } else {
    f.details.push_back("the copy reads its shared source until cp.async.bulk.wait_group_read (or wait_group) covers "
                        "its bulk group, and the source changed before that wait");
    f.fix = "wait for the group's reads (cuda::ptx::cp_async_bulk_wait_group_read) before any thread writes the "
            "source again";
  }
  report(f);
}

// Whether the last write to each word of the store's source is ordered for the async proxy: a
// copy's own write (the async proxy's) needs nothing; an ordinary store needs a
// fence.proxy.async after it, by its warp or by the issuing thread's.
void check_proxy_fence(Thread* t, std::uintptr_t source, std::size_t bytes, std::uintptr_t pc) {
  const Block& b = *t->block;
  const auto& fenced = b.bulk_stores.proxy_fence;
  for (std::size_t i = 0; i < bytes; i += race_detector::kGranule) {
    const race_detector::SharedRecord w = race_detector::last_shared_write(source + i);
    if (w.run != b.race.run || !(w.by.flags() & race_detector::kWrite) || (w.by.flags() & kAsyncProxy)) continue;
    const unsigned writer = w.by.thread();
    if (fenced[writer / kWarpSize] > w.warp_epoch || fenced[t->warp] > w.warp_epoch) continue;
    const std::uintptr_t write_pc = race_detector::code_ids.address(w.pc);
    if (!first_time(ReportKind::race, write_pc, pc)) return;
    Finding f;
    f.kind = ReportKind::race;
    f.headline = "data race (a bulk copy reads what ordinary stores wrote, with no fence.proxy.async between) on "
                 "shared memory";
    f.parties.push_back(party("write", &b.threads[writer], locate(write_pc)));
    f.parties.push_back(party("bulk copy", t, locate(pc)));
    f.details.push_back("location: " + shared_memory::describe_address(source + i, b));
    f.details.push_back("a bulk copy reads shared memory through the async proxy, and barriers order only ordinary "
                        "accesses: after writing the source, call cuda::ptx::fence_proxy_async(cuda::ptx::space_shared) "
                        "(every writing thread, or the issuing thread after a barrier with them), then issue the copy");
    report(f);
    return;
  }
}

// A bulk store still in flight when its thread exited: on a GPU its block's shared memory may be
// given to another block while the copy still reads it.
void report_never_waited(Thread* t, const PendingStore& s) {
  if (!first_time(ReportKind::api_misuse, s.issued_at, 0)) return;
  Finding f;
  f.kind = ReportKind::api_misuse;
  f.headline = "a bulk copy from shared memory still in flight when its thread exited";
  f.parties.push_back(party("bulk copy", t, locate(s.issued_at)));
  f.details.push_back("source: " + shared_memory::describe_address(s.source, *t->block));
  f.details.push_back("a block's shared memory is released when it ends, while the copy may still read it: before the "
                      "thread exits, wait for its bulk groups (cuda::ptx::cp_async_bulk_wait_group_read(n32_t<0>{}))");
  report(f);
}

// The store lands: what its source holds now goes to global memory (at a wait: `wait_pc`; when
// its block ends: 0).
void carry_out(Thread* t, PendingStore& s, std::uintptr_t wait_pc) {
  const auto* now = reinterpret_cast<const unsigned char*>(s.source);
  for (std::size_t i = 0; i < s.bytes; ++i)
    if (now[i] != s.issued_bytes[i]) {
      if (wait_pc) report_source_changed(t, s, i, wait_pc);
      break;
    }
  check_words(t, s.destination, s.bytes, race_detector::kWrite | kAsyncProxy, s.issued_at);
  std::memcpy(reinterpret_cast<void*>(s.destination), now, s.bytes);
}

}  // namespace

void begin_block(Block& b) {
  // The per-thread copies of cp.async go with the bulk copies' hooks, which the launch runs.
  async_copy_groups::begin_block(b);
  b.bulk_stores.in_flight.clear();
  b.bulk_stores.committed.clear();
  b.bulk_stores.proxy_fence.fill(0);
}

void end_block(Block& b) {
  async_copy_groups::end_block(b);
  // In thread order, so that the reports come in the same order on every run.
  std::vector<unsigned> threads;
  for (const auto& [thread, stores] : b.bulk_stores.in_flight)
    if (!stores.empty()) threads.push_back(thread);
  std::sort(threads.begin(), threads.end());
  for (unsigned thread : threads) {
    Thread* t = &b.threads[thread];
    std::vector<PendingStore>& stores = b.bulk_stores.in_flight[thread];
    report_never_waited(t, stores.front());
    for (PendingStore& s : stores) carry_out(t, s, 0);
  }
  b.bulk_stores.in_flight.clear();
}

void load(Thread* t, std::uintptr_t destination, std::uintptr_t source, std::size_t bytes, std::uintptr_t barrier,
          std::uintptr_t pc) {
  if (!copyable(t, destination, true, source, bytes, pc)) return;
  // The copy writes for the barrier's phase: what was there before must be ordered before it
  // (a stage reused before its readers released it is a race here), and its bytes reach a
  // thread only through the phase (async_barrier::deliver_bytes publishes them).
  check_words(t, source, bytes, race_detector::kRead, pc);
  check_words(t, destination, bytes, race_detector::kWrite | kAsyncProxy, pc);
  std::memcpy(reinterpret_cast<void*>(destination), reinterpret_cast<const void*>(source), bytes);
  async_barrier::deliver_bytes(t, barrier, static_cast<std::int64_t>(bytes), pc);
}

void phase_copy(Thread* t, std::uintptr_t destination, std::uintptr_t source, std::size_t bytes,
                std::uintptr_t barrier, std::uintptr_t pc) {
  if (!memory::in_shared(destination)) {
    Finding f;
    f.kind = ReportKind::unsupported;
    f.headline = "cuda::memcpy_async with a barrier into memory other than shared memory is not simulated";
    f.parties.push_back(party("memcpy_async", t, locate(pc)));
    f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchFailure");
    report(f);
    scheduler::abort_kernel(t, cudaErrorLaunchFailure);
  }
  // Granule by granule, so that each word of the shadow sees its part of the copy.
  for (std::size_t done = 0; done < bytes;) {
    const std::size_t piece =
        std::min(bytes - done, race_detector::kGranule - (destination + done) % race_detector::kGranule);
    race_detector::check_access(t, source + done, piece, race_detector::kRead, pc);
    race_detector::check_access(t, destination + done, piece, race_detector::kWrite | kAsyncProxy, pc);
    done += piece;
  }
  std::memmove(reinterpret_cast<void*>(destination), reinterpret_cast<const void*>(source), bytes);
  // Its bytes are announced and delivered at once: the copy adds nothing to the phase's count,
  // only what it wrote to what the phase publishes.
  async_barrier::deliver_bytes(t, barrier, 0, pc);
}

void store(Thread* t, std::uintptr_t destination, std::uintptr_t source, std::size_t bytes, std::uintptr_t pc) {
  if (!copyable(t, destination, false, source, bytes, pc)) return;
  // Whatever wrote the source must be ordered before the copy starts reading it.
  check_words(t, source, bytes, race_detector::kRead | kAsyncProxy, pc);
  check_proxy_fence(t, source, bytes, pc);
  PendingStore s;
  s.destination = destination;
  s.source = source;
  s.bytes = bytes;
  s.issued_at = pc;
  s.group = t->block->bulk_stores.committed[t->linear];
  const auto* at_issue = reinterpret_cast<const unsigned char*>(source);
  s.issued_bytes.assign(at_issue, at_issue + bytes);
  t->block->bulk_stores.in_flight[t->linear].push_back(std::move(s));
}

void proxy_fence(Thread* t) {
  t->block->bulk_stores.proxy_fence[t->warp] = race_detector::new_generation(*t->block);
}

void commit(Thread* t) { ++t->block->bulk_stores.committed[t->linear]; }

void wait(Thread* t, unsigned groups_left, std::uintptr_t pc) {
  BlockStores& part = t->block->bulk_stores;
  const auto found = part.in_flight.find(t->linear);
  if (found == part.in_flight.end()) return;
  const std::uint32_t committed = part.committed[t->linear];
  std::vector<PendingStore>& stores = found->second;
  std::vector<PendingStore> still;
  for (PendingStore& s : stores) {
    // Groups committed before the most recent `groups_left` ones are done; stores not yet
    // committed are not waited for.
    if (s.group + groups_left < committed) carry_out(t, s, pc);
    else still.push_back(std::move(s));
  }
  stores = std::move(still);
}

}  // namespace scanlab::sim::detail::bulk_copy
