#include "race_detector.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>

#include "block.hpp"
#include "launch.hpp"
#include "memory.hpp"
#include "memory_check.hpp"
#include "report.hpp"
#include "scheduler.hpp"
#include "shared_memory.hpp"

namespace scanlab::sim::detail::race_detector {
namespace {

using memory::in_global;
using memory::in_shared;

// Memory is tracked per 4-byte word, with a byte mask per access: exact for the element types
// kernels scan (4 and 8 bytes); for sub-word elements, two threads writing different bytes of one
// word can hide a third thread's conflict with the first (a missed report, never a false one).
constexpr std::size_t kGranule = 4;

struct AccessRecord {
  std::uintptr_t pc;
  std::uint32_t launch;  // 0: nothing recorded
  std::uint32_t block;
  std::uint32_t interval;
  std::uint32_t clock;
  std::uint32_t warp_epoch;
  std::uint16_t thread;
  std::uint8_t flags;
  std::uint8_t mask;  // bytes of the granule touched
};

struct Cell {
  AccessRecord write;
  AccessRecord read[2];
};

Cell* global_shadow = nullptr;
Cell* shared_shadow = nullptr;
std::uint32_t current_launch = 0;
bool race_check_enabled = true;  // the schedule's setting, read once per launch
bool lock_global_cells = false;  // blocks of this launch run on several OS threads

// Blocks on different OS threads may touch one global granule at once: its check holds one of
// these locks, chosen by the granule's 64-byte neighbourhood (uncontended unless two blocks
// work on the same data, which is a race or a hand-off).
class GranuleLocks {
 public:
  void lock(std::uintptr_t granule) {
    std::atomic_flag& f = flags_[(granule / 16) % kCount];
    while (f.test_and_set(std::memory_order_acquire)) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
  }
  void unlock(std::uintptr_t granule) { flags_[(granule / 16) % kCount].clear(std::memory_order_release); }

 private:
  static constexpr std::size_t kCount = 1 << 14;
  std::atomic_flag flags_[kCount] = {};
};
GranuleLocks granule_locks;
// Release/acquire state of the current launch's global locations written with atomics or
// volatile stores.
std::unordered_map<std::uintptr_t, std::vector<std::uint32_t>> sync_objects;

Cell* reserve_cells(std::size_t count) {
  void* p = mmap(nullptr, count * sizeof(Cell), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    std::fprintf(stderr,
                 "scanlab-sim: cannot reserve address space for race detection "
                 "(vm.overcommit_memory=2?); run with SCANLAB_SIM_RACECHECK=off\n");
    std::abort();
  }
  return static_cast<Cell*>(p);
}

bool is_strong(std::uint8_t flags, bool across_blocks) {
  // Atomics never race with atomics. Volatile accesses are strong (relaxed, system scope) in
  // the PTX memory model, which matters between blocks; inside a block racecheck treats
  // them as plain accesses, which is what catches warp-synchronous code without __syncwarp.
  return (flags & kAtomic) || (across_blocks && (flags & kVolatile));
}

// A plain read of a word that an atomic writes sees the old value or the new one, whole: the
// compare-and-swap loops of the CUDA Programming Guide (atomicMax on floats, ...) read such a
// guess and let atomicCAS check it. A plain write beside an atomic is a race all the same.
bool read_beside_atomic(std::uint8_t a, std::uint8_t b) {
  return ((a & kAtomic) && !(b & kWrite)) || ((b & kAtomic) && !(a & kWrite));
}

bool ordered(const AccessRecord& p, const Thread* t, bool shared) {
  if (p.launch != current_launch) return true;
  const Block* b = t->block;
  if (p.block != b->linear) {
    if (shared) return true;  // an earlier block's use of this arena
    return p.block < b->race.knows.size() && b->race.knows[p.block] > p.clock;
  }
  if (p.thread == t->linear) return true;
  if (p.interval != b->barrier.interval) return true;
  return p.thread / kWarpSize == t->warp && t->warp_clock[p.thread % kWarpSize] >= p.warp_epoch;
}

const char* role_of(std::uint8_t flags) {
  if (flags & kAtomic) return "atomic";
  if (flags & kWrite) return (flags & kVolatile) ? "volatile write" : "write";
  return (flags & kVolatile) ? "volatile read" : "read";
}

void report_race(const AccessRecord& p, const Thread* t, const AccessRecord& c, std::uintptr_t address,
                 bool shared) {
  if (!first_time(ReportKind::race, p.pc, c.pc)) return;
  const Launch& launch = *t->block->launch;
  const bool across = p.block != t->block->linear;
  Finding f;
  f.kind = ReportKind::race;
  Party recorded{role_of(p.flags), locate(p.pc), true, unflatten(p.block, launch.grid), unflatten(p.thread, launch.block)};
  Party current = party(role_of(c.flags), t, locate(c.pc));
  std::uint8_t first = p.flags, second = c.flags;
  // Blocks run side by side, so which of two racing blocks got there first is timing: the
  // report names the lower-numbered block first, the same whatever the number of cores.
  const bool swap = across && p.block > t->block->linear;
  if (swap) std::swap(first, second), std::swap(recorded, current);
  const char* hazard = (first & kWrite) ? ((second & kWrite) ? "write-after-write" : "read-after-write")
                                        : "write-after-read";
  f.headline = std::string("data race (") + hazard + ") on " + (shared ? "shared" : "global") + " memory";
  f.parties.push_back(recorded);
  f.parties.push_back(current);
  f.details.push_back("location: " + shared_memory::describe_address(address, *t->block));
  if (!across) {
    std::string after = t->block->barrier.last.file
                            ? "the last barrier of the block was at " + locate(t->block->barrier.last).text()
                            : "no barrier has run since the kernel started";
    f.details.push_back("no barrier separates the two accesses (" + after + ")" +
                        (p.thread / kWarpSize == t->warp ? "; the threads share a warp, but warps do not run in "
                                                           "lockstep: order them with __syncwarp()"
                                                         : ""));
  } else {
    const Block* b = t->block;
    const bool acquired_some = p.block < b->race.knows.size() && b->race.knows[p.block] > 0;
    f.details.push_back(
        acquired_some
            ? "the blocks synchronized through a flag, but this access of the other block came after its last "
              "__threadfence(): put __threadfence() between writing the data and setting the flag"
            : "nothing orders the two blocks: blocks run in any order, and only a flag set after "
              "__threadfence() (and read with an atomic or volatile load) publishes data to another block");
  }
  report(f);
}

template <bool Shared>
void check_cell(Cell& cell, Thread* t, const AccessRecord& c, std::uintptr_t address) {
  auto conflicts = [&](const AccessRecord& p) {
    if (p.launch == 0 || (p.mask & c.mask) == 0) return false;
    if (ordered(p, t, Shared)) return false;
    const bool across = p.block != t->block->linear;
    return !(is_strong(p.flags, across) && is_strong(c.flags, across)) && !read_beside_atomic(p.flags, c.flags);
  };
  if (conflicts(cell.write)) report_race(cell.write, t, c, address, Shared);
  if (c.flags & kWrite) {
    for (const AccessRecord& r : cell.read)
      if (conflicts(r)) {
        report_race(r, t, c, address, Shared);
        break;
      }
    cell.write = c;
    return;
  }
  // Remember up to two readers: a later write by a third thread conflicts with one of them.
  auto replaceable = [&](const AccessRecord& r) {
    return r.launch != c.launch || r.block != c.block || r.interval != c.interval || r.thread == c.thread;
  };
  if (replaceable(cell.read[0])) cell.read[0] = c;
  else cell.read[1] = c;
}

}  // namespace

void begin_launch(std::uint32_t launch_id, bool race_check, bool parallel) {
  static std::once_flag shadow_reserved;
  std::call_once(shadow_reserved, [] {
    global_shadow = reserve_cells(memory::kGlobalBytes / kGranule);
    shared_shadow = reserve_cells(memory::kSharedBytes / kGranule);
  });
  current_launch = launch_id;
  race_check_enabled = race_check;
  lock_global_cells = parallel;
  sync_objects.clear();
}

void begin_block(Block& b) {
  b.race.clock = 1;
  b.race.published = 0;
  b.race.knows.clear();
  for (unsigned i = 0; i < b.thread_count; ++i) {
    Thread& t = b.threads[i];
    t.warp_clock.fill(0);
    t.warp_clock[t.lane] = 1;
  }
}

void check_access(Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags, std::uintptr_t pc) {
  if (!(memory::in_buffer_ranges(address) && memory::all_live(address, bytes)) &&
      !memory_check::check_irregular(t, address, bytes, flags, pc))
    return;
  if ((flags & kWrite) && !(flags & kAtomic)) t->stored_since_yield = true;  // atomics count only when they change memory
  if (!race_check_enabled) return;
  Block* b = t->block;
  AccessRecord c{pc, current_launch, b->linear, b->barrier.interval, b->race.clock, t->warp_clock[t->lane],
                 static_cast<std::uint16_t>(t->linear), flags, 1};
  const bool shared = in_shared(address);
  const std::uintptr_t begin = shared ? memory::regions.shared_begin : memory::regions.global_begin;
  Cell* shadow = shared ? shared_shadow : global_shadow;
  std::uintptr_t offset = address - begin;
  const std::uintptr_t end = offset + bytes;
  while (offset < end) {
    const std::uintptr_t granule = offset / kGranule;
    const std::uintptr_t granule_end = std::min<std::uintptr_t>((granule + 1) * kGranule, end);
    c.mask = static_cast<std::uint8_t>(((1u << (granule_end - offset)) - 1) << (offset % kGranule));
    if (shared) {
      check_cell<true>(shadow[granule], t, c, begin + offset);
    } else if (lock_global_cells) {
      granule_locks.lock(granule);
      check_cell<false>(shadow[granule], t, c, begin + offset);
      granule_locks.unlock(granule);
    } else {
      check_cell<false>(shadow[granule], t, c, begin + offset);
    }
    offset = granule_end;
  }
}

void release(Thread* t, std::uintptr_t address) {
  Block* b = t->block;
  if (in_shared(address)) return;  // global memory, or a __device__ variable (a counter, a flag)
  const std::vector<std::uint32_t>& knows = b->race.knows;
  std::vector<std::uint32_t>& sync = sync_objects[address & ~std::uintptr_t{kGranule - 1}];
  if (sync.size() < std::max<std::size_t>(knows.size(), b->linear + 1))
    sync.resize(std::max<std::size_t>(knows.size(), b->linear + 1), 0);
  for (std::size_t i = 0; i < knows.size(); ++i) sync[i] = std::max(sync[i], knows[i]);
  sync[b->linear] = std::max(sync[b->linear], b->race.published + 1);  // +1: synchronized, even with nothing published
}

void acquire(Thread* t, std::uintptr_t address) {
  if (in_shared(address)) return;
  auto it = sync_objects.find(address & ~std::uintptr_t{kGranule - 1});
  if (it == sync_objects.end()) return;
  const std::vector<std::uint32_t>& sync = it->second;
  std::vector<std::uint32_t>& knows = t->block->race.knows;
  if (knows.size() < sync.size()) knows.resize(sync.size(), 0);
  for (std::size_t i = 0; i < sync.size(); ++i) knows[i] = std::max(knows[i], sync[i]);
}

void publish(Block& b) {
  b.race.published = b.race.clock;
  b.race.clock += 1;
}

void join_lanes(Thread* warp_lanes, unsigned mask) {
  LaneClocks joined{};
  for (unsigned l = 0; l < kWarpSize; ++l)
    if (mask & (1u << l))
      for (unsigned k = 0; k < kWarpSize; ++k) joined[k] = std::max(joined[k], warp_lanes[l].warp_clock[k]);
  for (unsigned l = 0; l < kWarpSize; ++l) {
    if (!(mask & (1u << l))) continue;
    warp_lanes[l].warp_clock = joined;
    warp_lanes[l].warp_clock[l] += 1;
  }
}

}  // namespace scanlab::sim::detail::race_detector
