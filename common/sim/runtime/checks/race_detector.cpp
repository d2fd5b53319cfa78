#include "checks/race_detector.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "checks/memory_check.hpp"
#include "checks/memory_order.hpp"
#include "checks/race_picture.hpp"
#include "checks/race_report.hpp"
#include "checks/race_rule.hpp"
#include "findings/report.hpp"
#include "memory/memory.hpp"
#include "memory/race_shadow.hpp"
#include "threads/block.hpp"
#include "threads/launch.hpp"
#include "threads/plain_poll.hpp"
#include "threads/scheduler.hpp"
#include "threads/shared_memory.hpp"

namespace scanlab::sim::detail::race_detector {
thread_local bool reads_one_stored_word = false;  // race_rule.hpp says what it holds
namespace {

using memory::in_shared;

bool race_check_enabled = true;  // the schedule's setting, read once per launch
std::atomic<std::uint32_t> next_run{1};
bool lock_global_cells = false;  // blocks of this launch run on several OS threads

struct HeldRace {
  Finding finding;
};
std::mutex held_mutex;
std::map<std::pair<std::uintptr_t, std::uintptr_t>, HeldRace> held_races;  // by (read's code, atomic's code)
std::set<std::uintptr_t> guess_code;  // code of plain reads that their thread's atomicCAS checked

// Races between blocks of a plain read with a store, held until the launch ends, by (read's
// code, store's code). The read may be a poll of a flag or status word through a plain pointer,
// which shows only after thousands of its loads (plain_poll.hpp), often after the store that
// races with it: such a race is the poll's finding, reported at the poll's line with the fix
// (a volatile or atomic load), and is dropped here so that one mistake is one finding.
struct HeldPollRace { Finding finding; KeptText* kept = nullptr; };
std::map<std::pair<std::uintptr_t, std::uintptr_t>, HeldPollRace> maybe_poll_races;

bool plain_read(std::uint8_t flags) { return !(flags & (kWrite | kVolatile)); }

// A reader of another interval (or block, or launch), or c's own thread, leaves room for c.
bool replaceable(const SharedRecord& r, const SharedRecord& c) {
  return r.run != c.run || r.interval != c.interval || r.by.thread() == c.by.thread();
}
bool replaceable(const GlobalRecord& r, const GlobalRecord& c) {
  return r.launch != c.launch || r.block != c.block || r.interval != c.interval || r.by.thread() == c.by.thread();
}
// Whether r and c are ordered alike before any later access of another thread, apart from
// warp ordering: the same block run and interval (and, in global memory, fence clock).
bool same_epoch(const SharedRecord& r, const SharedRecord& c) { return r.run == c.run && r.interval == c.interval; }
bool same_epoch(const GlobalRecord& r, const GlobalRecord& c) {
  return r.launch == c.launch && r.block == c.block && r.interval == c.interval && r.clock == c.clock;
}
// Whether the two readers a cell holds already stand for reader c: the same epoch, code address,
// kind of access and bytes (or more), and in two different warps. A later access conflicts with c
// only if it conflicts with one of them, since no thread is warp-ordered after both: a word that
// every thread of a block reads (a carry, a total) is then written once, not by every thread,
// which on several cores would pass the cache line from core to core for every read.
template <bool Shared>
__attribute__((always_inline)) inline bool stands_for(const AccessRecord<Shared>& r, const AccessRecord<Shared>& c) {
  return same_epoch(r, c) && r.pc == c.pc && r.by.flags() == c.by.flags() && (r.by.mask() & c.by.mask()) == c.by.mask();
}
template <bool Shared>
__attribute__((always_inline)) inline bool covered(const AccessRecord<Shared>& r0, const AccessRecord<Shared>& r1,
                                                   const AccessRecord<Shared>& c) {
  return stands_for<Shared>(r0, c) && stands_for<Shared>(r1, c) && r0.by.thread() / kWarpSize != r1.by.thread() / kWarpSize;
}

// A race between blocks of a plain read with a store: held (maybe_poll_races) until the launch
// ends. Which threads of which blocks met at the word first depends on timing when blocks run
// side by side, so it is kept by its two lines, which do not.
__attribute__((noinline, cold)) void hold_maybe_poll(const GlobalRecord& p, const Thread* t, const GlobalRecord& c,
                                                     std::uintptr_t address, Verdict verdict) {
  const std::uintptr_t p_pc = code_ids.address(p.pc), c_pc = code_ids.address(c.pc);
  const bool p_reads = plain_read(p.by.flags());
  const std::pair<std::uintptr_t, std::uintptr_t> key(p_reads ? p_pc : c_pc, p_reads ? c_pc : p_pc);
  {
    std::lock_guard<std::mutex> lock(held_mutex);
    if (maybe_poll_races.count(key)) return;
  }
  const RaceSide earlier{p_pc, p.by.flags(), block_of(p, t), p.by.thread()};
  Finding f = race_finding(earlier, t, c_pc, c.by.flags(), address, false, verdict, stamp_of(p));
  KeptText* kept = keep_until_printed(f);  // a time limit's signal prints it
  std::lock_guard<std::mutex> lock(held_mutex);
  maybe_poll_races.emplace(key, HeldPollRace{std::move(f), kept});
}

template <bool Shared>
void report_race(const AccessRecord<Shared>& p, const Thread* t, const AccessRecord<Shared>& c, std::uintptr_t address,
                 Verdict verdict) {
  const std::uintptr_t p_pc = code_ids.address(p.pc), c_pc = code_ids.address(c.pc);
  const RaceSide earlier{p_pc, p.by.flags(), block_of(p, t), p.by.thread()};
  if constexpr (!Shared) {
    if (verdict == Verdict::race && earlier.block != t->block->linear &&
        (plain_read(p.by.flags()) || plain_read(c.by.flags())))
      return hold_maybe_poll(p, t, c, address, verdict);
  }
  // A place is reported once, unless its first report's fix (__syncwarp) does not order this race.
  if (!first_time(ReportKind::race, p_pc, c_pc) && !widen_fix(earlier, t, c_pc)) return;
  std::optional<memory_order::Stamp> between_blocks;
  if constexpr (!Shared) {
    if (earlier.block != t->block->linear) between_blocks = stamp_of(p);
  }
  Finding f = race_finding(earlier, t, c_pc, c.by.flags(), address, Shared, verdict, between_blocks);
  if constexpr (Shared) {
    // Where it happened, as data, so that a grader can ask for its picture; and the picture,
    // where this run records one.
    f.memory = race_picture::subject_of(t, address);
    if (race_picture::recording.load(std::memory_order_relaxed))
      f.picture = race_picture::take(t, address, c_pc, c.by.flags(), p.by.thread(), p_pc, p.by.flags());
  }
  report(f);
}

// The other reader a write also races with, perhaps of another warp than the one just reported:
// the fix given for the two lines must order it too (race_report.hpp, widen_fix).
template <bool Shared>
void widen_for(const AccessRecord<Shared>& p, const Thread* t, const AccessRecord<Shared>& c, std::uintptr_t address) {
  const RaceSide other{code_ids.address(p.pc), p.by.flags(), block_of(p, t), p.by.thread()};
  const std::uintptr_t c_pc = code_ids.address(c.pc);
  if (widen_fix(other, t, c_pc)) report(race_finding(other, t, c_pc, c.by.flags(), address, Shared, Verdict::race, std::nullopt));
}

// A plain read beside an atomic write, held until the launch ends (see held_races). Which
// threads of which blocks met at the word first depends on timing when blocks run side by side,
// so the report names the two lines, which do not.
template <bool Shared>
__attribute__((noinline, cold)) void hold_race(const AccessRecord<Shared>& p, const AccessRecord<Shared>& c) {
  const bool p_reads = !(p.by.flags() & kWrite);
  const AccessRecord<Shared>& read = p_reads ? p : c;
  const AccessRecord<Shared>& atomic = p_reads ? c : p;
  const std::pair<std::uintptr_t, std::uintptr_t> key(code_ids.address(read.pc), code_ids.address(atomic.pc));
  {
    std::lock_guard<std::mutex> lock(held_mutex);
    if (held_races.count(key)) return;
  }
  Finding f = read_beside_atomics_finding(key.first, read.by.flags(), key.second, atomic.by.flags(), Shared);
  keep_until_printed(f);  // a time limit's signal prints it; the launch's end forgets it
  std::lock_guard<std::mutex> lock(held_mutex);
  held_races.emplace(key, HeldRace{std::move(f)});
}

bool same_interval(const SharedRecord& r, const SharedRecord& c) { return same_epoch(r, c); }
bool same_interval(const GlobalRecord& r, const GlobalRecord& c) {
  return r.launch == c.launch && r.block == c.block && r.interval == c.interval;
}
template <bool Shared>
void learn_guess(const Cell<Shared>& cell, const AccessRecord<Shared>& c) {
  for (const AccessRecord<Shared>& r : cell.read)
    if (recorded(r) && same_interval(r, c) && !(r.by.flags() & kAtomic)) {
      std::lock_guard<std::mutex> lock(held_mutex);
      guess_code.insert(code_ids.address(r.pc));
    }
}

template <bool Shared>
__attribute__((noinline)) void check_cell(Cell<Shared>& cell, Thread* t, const AccessRecord<Shared> c,
                                          std::uintptr_t address) {
  if (c.by.flags() & kCompareAndSwap) learn_guess<Shared>(cell, c);
  if (const Verdict v = judge<Shared>(cell.write, t, c); v == Verdict::held) hold_race<Shared>(cell.write, c);
  else if (v != Verdict::none) report_race<Shared>(cell.write, t, c, address, v);
  if (c.by.flags() & kWrite) {
    for (const AccessRecord<Shared>& r : cell.read)
      if (const Verdict v = judge<Shared>(r, t, c); v == Verdict::held) {
        hold_race<Shared>(r, c);
      } else if (v != Verdict::none) {
        report_race<Shared>(r, t, c, address, v);
        for (const AccessRecord<Shared>& other : cell.read)
          if (&other != &r && judge<Shared>(other, t, c) == Verdict::race) widen_for<Shared>(other, t, c, address);
        break;
      }
    cell.write = c;
    return;
  }
  // Remember up to two readers: a later write by a third thread conflicts with one of them.
  if (replaceable(cell.read[0], c)) cell.read[0] = c;
  else if (!covered<Shared>(cell.read[0], cell.read[1], c)) cell.read[1] = c;
}

}  // namespace

void begin_launch(const Launch& launch) {
  begin_launch_shadow(launch.id);
  race_check_enabled = launch.race_check;
  held_races.clear();
  guess_code.clear();
  maybe_poll_races.clear();
  lock_global_cells = launch.parallel;
}

void end_launch(const Launch&) {
  for (const auto& [code, held] : held_races) {
    if (guess_code.count(code.first)) continue;
    if (first_time(ReportKind::race, code.first, code.second))
      report(held.finding);
  }
  held_races.clear();
  for (auto& [code, held] : maybe_poll_races) {
    printed(held.kept);
    if (plain_poll::polls_at(code.first)) continue;  // the poll's finding tells this mistake
    if (first_time(ReportKind::race, code.first, code.second)) report(held.finding);
  }
  maybe_poll_races.clear();
}

void begin_block(Block& b) {
  b.race.run = next_run.fetch_add(1, std::memory_order_relaxed);
  if (b.race.run == 0) {
    // Run numbers wrapped around (after 2^32 blocks): forget every shared-memory record, so that
    // none of a long-gone block passes for this one's.
    forget_shared_records();
    b.race.run = next_run.fetch_add(1, std::memory_order_relaxed);
  }
  b.race.segment = 0;
  b.race.sub_warp_tiles = 0;  // the slot's previous block made its own tiles
  race_picture::begin_block(b);
  // Lane clocks carry over from the slot's previous block: they hold __syncwarp generations of
  // this slot, which only grow, so every one a thread knows is below the generation of any
  // access of the new block. So a block starts without clearing 128 bytes a thread, unless the
  // generation nears its limit (new threads start with clocks of 0).
  constexpr std::uint32_t kGenerationLimit = std::uint32_t{1} << 30;
  if (b.race.generation < kGenerationLimit) return;
  b.race.generation = 0;
  for (unsigned i = 0; i < b.thread_count; ++i) b.threads[i].warp_clock.fill(0);
  if (b.race.tile_clocks) *b.race.tile_clocks = WarpClocks{};
  if (b.race.handoff_clocks) *b.race.handoff_clocks = WarpClocks{};
}

namespace {

// The segment of block b's accesses now: a new one after a barrier, a fence or a __syncwarp.
__attribute__((noinline)) std::uint32_t new_segment(Block& b) {
  BlockClocks& r = b.race;
  r.segment_interval = b.barrier.interval;
  r.segment_clock = b.ordering.clock;
  r.segment_generation = r.generation;
  r.segment = segments.add(Segment{b.linear, b.barrier.interval, b.ordering.clock, r.generation});
  return r.segment;
}
inline std::uint32_t segment_now(Block& b) {
  const BlockClocks& r = b.race;
  if (r.segment != 0 && r.segment_interval == b.barrier.interval && r.segment_clock == b.ordering.clock &&
      r.segment_generation == r.generation)
    return r.segment;
  return new_segment(b);
}

// Whether an earlier access r could conflict with c at all (check_cell decides whether it does):
// an access of another thread in the same block run and interval, or in global memory also one
// of another block of this launch.
std::uint64_t epoch_of(const SharedRecord& r) { return r.run | std::uint64_t{r.interval} << 32; }
bool may_conflict(const SharedRecord& r, const SharedRecord& c) {
  return epoch_of(r) == epoch_of(c) && r.by.thread() != c.by.thread();
}
// The same for packed global records, c an access of block b now.
bool may_conflict(std::uint64_t r, std::uint64_t c, const Block& b) {
  const std::uint32_t id = packed::segment(r);
  if (id < segments.first()) return false;
  const bool other_thread = packed::thread(r) != packed::thread(c);
  if (id == packed::segment(c)) return other_thread;
  const Segment& s = segments[id];
  return s.block != b.linear || (s.interval == b.barrier.interval && other_thread);
}

// The record of thread t's access now, in shared or global memory.
SharedRecord shared_record(const Thread* t, std::uint32_t pc_id, Accessor by) {
  const Block* b = t->block;
  return SharedRecord{b->race.run, b->barrier.interval, b->race.generation, pc_id, by};
}
GlobalRecord global_record(const Thread* t, std::uint32_t pc_id, Accessor by) {
  Block* b = t->block;
  const std::uint32_t segment = segment_now(*b);
  return GlobalRecord{current_launch, b->linear, b->barrier.interval, b->ordering.clock, b->race.generation,
                      pc_id, by, segment};
}

// check_cell for a word, from arguments that all travel in registers, so that the common path
// reaches it by a jump and keeps no frame of its own on the fiber's stack.
__attribute__((noinline)) void check_shared_word_exactly(Cell<true>& cell, Thread* t, std::uintptr_t address,
                                                         std::uint32_t pc_id, Accessor by) {
  check_cell<true>(cell, t, shared_record(t, pc_id, by), address);
}
// check_cell for a granule of global memory: unpacked, judged, and packed again.
__attribute__((noinline)) void check_global_granule(std::uintptr_t granule, Thread* t, const GlobalRecord& c,
                                                    std::uintptr_t address) {
  Cell<false> cell = unpack_cell(granule);
  check_cell<false>(cell, t, c, address);
  pack_cell(granule, cell);
}

// The common case, a plain aligned 4-byte access: unless its cell holds an access that may
// conflict with it, only its record is written (what check_cell would do); otherwise check_cell
// decides. The record comes by value, as it does to check_cell: passed by reference, it was
// assembled on the stack field by field and then copied into the cell in one wide load, which
// stalls on store forwarding.
void check_shared_word(Cell<true>& cell, Thread* t, const SharedRecord c, std::uintptr_t address) {
  if (may_conflict(cell.write, c)) return check_shared_word_exactly(cell, t, address, c.pc, c.by);
  if (c.by.flags() & kWrite) {
    if (may_conflict(cell.read[0], c) || may_conflict(cell.read[1], c))
      return check_shared_word_exactly(cell, t, address, c.pc, c.by);
    put(cell.write, c);
    return;
  }
  // A reader that may not conflict is replaceable (see check_cell).
  if (!may_conflict(cell.read[0], c)) return put(cell.read[0], c);
  // Otherwise it takes the second place, unless the two readers there stand for it: the common
  // case of a word that every thread of a block reads in turn (a loop over a shared array, as in
  // a rank sort), decided here with no call and nothing written.
  if (covered<true>(cell.read[0], cell.read[1], c)) return;
  put(cell.read[1], c);
}
// The same for global memory, on the packed cell; every other case is check_cell's.
void check_global_word(GlobalCell& cell, std::uintptr_t granule, Thread* t, std::uint32_t pc_id, Accessor by,
                       std::uintptr_t address) {
  const Block& b = *t->block;
  const std::uint64_t c = packed::pack(segment_now(*t->block), pc_id, by);
  const std::uint64_t second = cell.read & packed::kSecondReader;
  if (!may_conflict(cell.write, c, b)) {
    if (packed::writes(c)) {
      if (!may_conflict(cell.read, c, b) && !(second && may_conflict(second_readers[granule], c, b))) {
        cell.write = c;
        return;
      }
    } else if (!may_conflict(cell.read, c, b)) {
      cell.read = c | second;
      return;
    }
  }
  check_global_granule(granule, t, global_record(t, pc_id, by), address);
}

// The race checks of any access to live device memory, one granule at a time.
__attribute__((noinline)) void check_races_by_granule(Thread* t, std::uintptr_t address, std::size_t bytes,
                                                      std::uint8_t flags, std::uintptr_t pc) {
  const std::uint32_t pc_id = code_ids.id(pc);
  const auto thread = static_cast<std::uint16_t>(t->linear);
  // Each granule the access touches, with the bytes of it touched.
  auto for_each_granule = [&](std::uintptr_t begin, auto&& check) {
    std::uintptr_t offset = address - begin;
    const std::uintptr_t end = offset + bytes;
    while (offset < end) {
      const std::uintptr_t granule = offset / kGranule;
      const std::uintptr_t granule_end = std::min<std::uintptr_t>((granule + 1) * kGranule, end);
      check(granule, static_cast<std::uint8_t>(((1u << (granule_end - offset)) - 1) << (offset % kGranule)),
            begin + offset);
      offset = granule_end;
    }
  };
  if (in_shared(address)) {
    SharedRecord c = shared_record(t, pc_id, Accessor(thread, flags, 0));
    for_each_granule(memory::regions.shared_begin, [&](std::uintptr_t granule, std::uint8_t mask, std::uintptr_t at) {
      c.by = c.by.with_mask(mask);
      check_cell<true>(shared_shadow[granule], t, c, at);
    });
  } else {
    GlobalRecord c = global_record(t, pc_id, Accessor(thread, flags, 0));
    reads_one_stored_word = false;
    if (bytes == 2 * kGranule && address % (2 * kGranule) == 0 && (flags & kVolatile) && !(flags & kWrite)) {
      const std::uintptr_t low = (address - memory::regions.global_begin) / kGranule;
      const std::uint64_t low_write = __atomic_load_n(&global_shadow[low].write, __ATOMIC_RELAXED);
      reads_one_stored_word = low_write != 0 && low_write == __atomic_load_n(&global_shadow[low + 1].write, __ATOMIC_RELAXED);
    }
    for_each_granule(memory::regions.global_begin, [&](std::uintptr_t granule, std::uint8_t mask, std::uintptr_t at) {
      c.by = c.by.with_mask(mask);
      if (!lock_global_cells) return check_global_granule(granule, t, c, at);
      granule_locks.lock(granule);
      check_global_granule(granule, t, c, at);
      granule_locks.unlock(granule);
    });
  }
}

// A plain aligned 4-byte access to global memory, under its granule's lock when blocks run on
// several OS threads.
__attribute__((noinline)) void check_global_word(Thread* t, std::uintptr_t address, std::uint32_t pc_id, Accessor by) {
  const std::uintptr_t granule = (address - memory::regions.global_begin) / kGranule;
  if (!lock_global_cells) return check_global_word(global_shadow[granule], granule, t, pc_id, by, address);
  granule_locks.lock(granule);
  check_global_word(global_shadow[granule], granule, t, pc_id, by, address);
  granule_locks.unlock(granule);
}

// The race checks of an access to live device memory. Out of line, so that an access with race
// checks off costs the bounds and validity check alone; and lean for the common case, a plain
// aligned 4-byte access to shared memory, which leaves only by jumps: it keeps no frame on the
// fiber's stack, whose lines a switch back to the thread would fetch again.
__attribute__((noinline)) void check_races(Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags,
                                           std::uintptr_t pc) {
  if (bytes != kGranule || address % kGranule != 0 || (flags & kAtomic))
    return check_races_by_granule(t, address, bytes, flags, pc);
  const Accessor by(static_cast<std::uint16_t>(t->linear), flags, 0xF);
  const std::uint32_t pc_id = code_ids.id(pc);
  if (!in_shared(address)) return check_global_word(t, address, pc_id, by);
  return check_shared_word(shared_shadow[(address - memory::regions.shared_begin) / kGranule], t,
                           shared_record(t, pc_id, by), address);
}

// What a plain access (to live bytes that were written) does; also checked after an irregular one.
inline void check_live_access(Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags,
                              std::uintptr_t pc) {
  if ((flags & kWrite) && !(flags & kAtomic)) t->stored_since_yield = true;  // atomics count only when they change memory
  if (!race_check_enabled) return;
  if (__builtin_expect(race_picture::recording.load(std::memory_order_relaxed), false))
    race_picture::note(t, address, bytes, flags, pc);
  check_races(t, address, bytes, flags, pc);
}

__attribute__((noinline)) void check_irregular_access(Thread* t, std::uintptr_t address, std::size_t bytes,
                                                      std::uint8_t flags, std::uintptr_t pc) {
  if (memory_check::check_irregular(t, address, bytes, flags, pc)) check_live_access(t, address, bytes, flags, pc);
}

}  // namespace

// Only tail calls leave the common path, so that it saves no registers on the fiber's stack.
void check_access(Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags, std::uintptr_t pc) {
  if (memory::in_buffer_ranges(address) && memory::all_live(address, bytes)) check_live_access(t, address, bytes, flags, pc);
  else check_irregular_access(t, address, bytes, flags, pc);
}

void join_lanes(Thread* warp_lanes, unsigned mask) {
  if (mask == 0) return;
  BlockClocks& race = warp_lanes[__builtin_ctz(mask)].block->race;
  const std::uint32_t generation = ++race.generation;
  LaneClocks joined{};
  for (unsigned l = 0; l < kWarpSize; ++l)
    if (mask & (1u << l))
      for (unsigned k = 0; k < kWarpSize; ++k) joined[k] = std::max(joined[k], warp_lanes[l].warp_clock[k]);
  for (unsigned l = 0; l < kWarpSize; ++l)
    if (mask & (1u << l)) joined[l] = generation;
  for (unsigned l = 0; l < kWarpSize; ++l)
    if (mask & (1u << l)) warp_lanes[l].warp_clock = joined;
}

void join_warps(Block& b, unsigned first_warp, unsigned count) {
  BlockClocks& race = b.race;
  const std::uint32_t generation = ++race.generation;
  // Tile clocks carry over from the slot's previous block as lane clocks do (begin_block).
  if (!race.tile_clocks) race.tile_clocks = std::make_unique<WarpClocks>();
  WarpClocks& clocks = *race.tile_clocks;
  std::array<std::uint32_t, kMaxWarpsPerBlock> joined{};
  for (unsigned v = first_warp; v < first_warp + count; ++v)
    for (unsigned w = 0; w < kMaxWarpsPerBlock; ++w) joined[w] = std::max(joined[w], clocks[v][w]);
  for (unsigned w = first_warp; w < first_warp + count; ++w) joined[w] = generation;
  for (unsigned v = first_warp; v < first_warp + count; ++v) clocks[v] = joined;
  // What the tile's warps heard of through barrier objects, they now all know.
  if (race.handoff_clocks) {
    WarpClocks& handoffs = *race.handoff_clocks;
    std::array<std::uint32_t, kMaxWarpsPerBlock> heard{};
    for (unsigned v = first_warp; v < first_warp + count; ++v)
      for (unsigned w = 0; w < kMaxWarpsPerBlock; ++w) heard[w] = std::max(heard[w], handoffs[v][w]);
    for (unsigned v = first_warp; v < first_warp + count; ++v) handoffs[v] = heard;
  }
}

void publish_warp(Block& b, unsigned warp, WarpRow& published) {
  BlockClocks& race = b.race;
  // A new generation: the warp's accesses so far are below it, its next ones are not.
  const std::uint32_t generation = ++race.generation;
  if (!race.handoff_clocks) race.handoff_clocks = std::make_unique<WarpClocks>();
  const WarpRow& heard = (*race.handoff_clocks)[warp];
  for (unsigned w = 0; w < kMaxWarpsPerBlock; ++w) published[w] = std::max(published[w], heard[w]);
  if (race.tile_clocks)
    for (unsigned w = 0; w < kMaxWarpsPerBlock; ++w) published[w] = std::max(published[w], (*race.tile_clocks)[warp][w]);
  published[warp] = generation;
}

std::uint32_t new_generation(Block& b) { return ++b.race.generation; }

SharedRecord last_shared_write(std::uintptr_t address) {
  if (!race_check_enabled || !shared_shadow) return SharedRecord{};
  return shared_shadow[(address - memory::regions.shared_begin) / kGranule].write;
}

void acquire_for_warp(Block& b, unsigned warp, const WarpRow& published) {
  BlockClocks& race = b.race;
  if (!race.handoff_clocks) race.handoff_clocks = std::make_unique<WarpClocks>();
  WarpRow& heard = (*race.handoff_clocks)[warp];
  for (unsigned w = 0; w < kMaxWarpsPerBlock; ++w) heard[w] = std::max(heard[w], published[w]);
}

}  // namespace scanlab::sim::detail::race_detector
