#include "checks/race_detector.hpp"

#include <sys/mman.h>

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
#include "findings/report.hpp"
#include "memory/memory.hpp"
#include "threads/block.hpp"
#include "threads/launch.hpp"
#include "threads/scheduler.hpp"
#include "threads/shared_memory.hpp"

namespace scanlab::sim::detail::race_detector {
namespace {

using memory::in_global;
using memory::in_shared;

// Memory is tracked per 4-byte word, with a byte mask per access: exact for the element types
// kernels scan (4 and 8 bytes); for sub-word elements, two threads writing different bytes of one
// word can hide a third thread's conflict with the first (a missed report, never a false one).
constexpr std::size_t kGranule = 4;

// A code address as a small number, so that a global-memory record fits in 64 bits: numbered in
// the order first used, in a table whose lookup takes no lock (an access of kernel code asks it
// every time). Reports and held races go by the address, never by the number, whose order
// depends on which block ran first.
class CodeIds {
 public:
  static constexpr std::uint32_t kBits = 15;
  std::uint32_t id(std::uintptr_t pc) {
    for (std::size_t i = slot_of(pc);; i = (i + 1) % kSlots) {
      const std::uintptr_t there = slots_[i].pc.load(std::memory_order_acquire);
      if (there == pc) return slots_[i].id;
      if (there == 0) return add(pc);
    }
  }
  std::uintptr_t address(std::uint32_t id) { return addresses_[id]; }

 private:
  static constexpr std::size_t kSlots = std::size_t{2} << kBits;  // at most half full
  static std::size_t slot_of(std::uintptr_t pc) { return (pc * 0x9E3779B97F4A7C15ull) >> (64 - (kBits + 1)); }
  __attribute__((noinline)) std::uint32_t add(std::uintptr_t pc) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::size_t i = slot_of(pc);
    for (; slots_[i].pc.load(std::memory_order_relaxed) != 0; i = (i + 1) % kSlots)
      if (slots_[i].pc.load(std::memory_order_relaxed) == pc) return slots_[i].id;
    if (count_ == (std::uint32_t{1} << kBits)) {
      std::fprintf(stderr, "scanlab-sim: kernel code accessed device memory from more than %u places, the most the "
                           "race detector tells apart; run with SCANLAB_SIM_RACECHECK=off\n", count_);
      std::abort();
    }
    const std::uint32_t id = count_++;
    addresses_[id] = pc;
    slots_[i].id = id;
    slots_[i].pc.store(pc, std::memory_order_release);
    return id;
  }
  struct Slot {
    std::atomic<std::uintptr_t> pc{0};
    std::uint32_t id = 0;
  };
  std::mutex mutex_;
  std::uint32_t count_ = 0;
  Slot slots_[kSlots];
  std::uintptr_t addresses_[std::size_t{1} << kBits] = {};
};
CodeIds code_ids;

// Who made an access and how, in one 32-bit word. A record is assembled in registers and
// stored whole: one assembled on the stack from 8- and 16-bit stores and then copied as wider
// words stalls on store forwarding, which cost a third of every checked access.
class Accessor {
 public:
  Accessor() = default;
  Accessor(std::uint16_t thread, std::uint8_t flags, std::uint8_t mask)
      : bits_(thread | std::uint32_t{flags} << 16 | std::uint32_t{mask} << 24) {}
  std::uint16_t thread() const { return static_cast<std::uint16_t>(bits_); }
  std::uint8_t flags() const { return static_cast<std::uint8_t>(bits_ >> 16); }
  std::uint8_t mask() const { return static_cast<std::uint8_t>(bits_ >> 24); }  // bytes of the granule touched
  Accessor with_mask(std::uint8_t mask) const { return Accessor(bits_ & 0x00FFFFFFu, mask); }

 private:
  Accessor(std::uint32_t rest, std::uint8_t mask) : bits_(rest | std::uint32_t{mask} << 24) {}
  std::uint32_t bits_ = 0;
};

// One access as a shadow cell remembers it. Shared memory belongs to one block at a time, so a
// block run (which also tells launches apart) is all it needs of where the access came from;
// global memory also needs the block's index and its fence clock, for hand-offs between blocks.
struct SharedRecord {
  std::uint32_t run;  // the block run (BlockClocks::run); 0: nothing recorded
  std::uint32_t interval;
  std::uint32_t warp_epoch;  // the block's __syncwarp generation (BlockClocks::generation)
  std::uint32_t pc;  // CodeIds::id
  Accessor by;
};
// A global-memory record as check_cell() reads it, unpacked from its 64 bits (see GlobalCell).
struct GlobalRecord {
  std::uint32_t launch;  // 0: nothing recorded, or a record of an earlier launch (ordered before this one)
  std::uint32_t block;
  std::uint32_t interval;
  std::uint32_t clock;
  std::uint32_t warp_epoch;  // the block's __syncwarp generation (BlockClocks::generation)
  std::uint32_t pc;
  Accessor by;
  std::uint32_t segment;  // where launch, block, interval, clock and warp_epoch are kept
};
template <bool Shared>
using AccessRecord = std::conditional_t<Shared, SharedRecord, GlobalRecord>;

// Writes a shared-memory record into its cell as two 64-bit words and the accessor, from general
// registers. Assigned whole, the compiler gathers the five 32-bit fields in a vector register and
// keeps them on the stack, which gives the common path a stack frame.
inline void put(SharedRecord& to, const SharedRecord& c) {
  static_assert(offsetof(SharedRecord, interval) == 4 && offsetof(SharedRecord, pc) == 12, "fields in pairs");
  const std::uint64_t epoch = c.run | std::uint64_t{c.interval} << 32;
  const std::uint64_t origin = c.warp_epoch | std::uint64_t{c.pc} << 32;
  std::memcpy(&to.run, &epoch, sizeof epoch);
  std::memcpy(&to.warp_epoch, &origin, sizeof origin);
  to.by = c.by;
}

// The last write and up to two readers of the current interval. A shared cell is one cache
// line: the cell of every access of shared memory is one load away. A global one is kept packed
// (GlobalCell) and unpacked into a Cell<false> where check_cell() judges it.
template <bool Shared>
struct alignas(Shared ? 64 : 4) Cell {
  AccessRecord<Shared> write;
  AccessRecord<Shared> read[2];
};
static_assert(sizeof(Cell<true>) == 64, "a shared-memory cell fills one cache line");

Cell<true>* shared_shadow = nullptr;
std::uint32_t current_launch = 0;

// Global memory's shadow takes 16 bytes a word, so that buffers of 2^28 elements fit beside
// their data. What an access shares with every access of its block in the same stretch (launch,
// block, barrier interval, fence clock and __syncwarp generation) is a segment, kept once in
// the launch's table; a record is the segment's number and what is the access's own: the code
// address's number, the thread in the block, the bytes and the kind of access, in 64 bits. A
// cell holds the last write and one reader; a second reader of the same stretch, which only
// words that many threads read have (a carry, a total, a flag), goes to a second array whose
// pages are taken only where that happens.
struct Segment {
  std::uint32_t block;
  std::uint32_t interval;
  std::uint32_t clock;
  std::uint32_t generation;
};
class Segments {
 public:
  static constexpr std::uint32_t kBits = 30;
  // Numbers below first() are records of earlier launches: ordered before every access now.
  std::uint32_t first() const { return first_; }
  const Segment& operator[](std::uint32_t id) const {
    return chunks_[id >> kChunkBits].load(std::memory_order_relaxed)[id & (kChunk - 1)];
  }
  // A new launch forgets the segments of the last one. Returns false when numbers ran low: the
  // caller forgets every record, and numbering starts over.
  bool begin_launch() {
    for (auto& c : chunks_) delete[] c.exchange(nullptr, std::memory_order_relaxed);
    const std::uint32_t next = (next_.load(std::memory_order_relaxed) + kChunk - 1) & ~(kChunk - 1);
    const bool fresh = next < (std::uint32_t{1} << (kBits - 1));
    first_ = fresh ? next : kChunk;
    next_.store(first_, std::memory_order_relaxed);
    return fresh;
  }
  // Called by a thread of the segment's block, before any record names the segment; a record
  // reaches other OS threads under its granule's lock, which carries the entry along.
  std::uint32_t add(const Segment& s) {
    const std::uint32_t id = next_.fetch_add(1, std::memory_order_relaxed);
    if (id >= (std::uint32_t{1} << kBits)) {
      std::fprintf(stderr, "scanlab-sim: a launch ran more than 2^%u barrier intervals and fences in all its "
                           "blocks, the most the race detector numbers; run with SCANLAB_SIM_RACECHECK=off\n", kBits);
      std::abort();
    }
    std::atomic<Segment*>& chunk = chunks_[id >> kChunkBits];
    Segment* c = chunk.load(std::memory_order_acquire);
    if (!c) {
      std::lock_guard<std::mutex> lock(mutex_);
      c = chunk.load(std::memory_order_relaxed);
      if (!c) chunk.store(c = new Segment[kChunk], std::memory_order_release);
    }
    c[id & (kChunk - 1)] = s;
    return id;
  }

 private:
  static constexpr unsigned kChunkBits = 16;
  static constexpr std::uint32_t kChunk = std::uint32_t{1} << kChunkBits;
  std::atomic<Segment*> chunks_[(std::size_t{1} << kBits) >> kChunkBits] = {};
  std::atomic<std::uint32_t> next_{kChunk};
  std::uint32_t first_ = kChunk;
  std::mutex mutex_;
};
Segments segments;

// A record in 64 bits: segment, code, thread, bytes, kind; the top bit of a cell's reader says
// that the cell has a second reader in second_readers.
namespace packed {
constexpr unsigned kCodeShift = Segments::kBits, kThreadShift = kCodeShift + CodeIds::kBits, kMaskShift = kThreadShift + 10,
                   kKindShift = kMaskShift + 4;
constexpr std::uint64_t kSecondReader = std::uint64_t{1} << 63;
static_assert(kKindShift + 4 == 63, "a record fills 63 bits");
static_assert(kMaxThreadsPerBlock <= 1024, "a thread in the block takes 10 bits");
// The kinds a record keeps, in 4 bits: compare-and-swap and blind writes matter only to the
// access being checked.
inline std::uint64_t kind_of(std::uint8_t flags) {
  return (flags & (kWrite | kAtomic | kVolatile)) | ((flags & kBlockScope) ? 8u : 0u);
}
inline std::uint8_t flags_of(std::uint64_t kind) {
  return static_cast<std::uint8_t>((kind & 7) | ((kind & 8) ? kBlockScope : 0));
}
inline std::uint32_t segment(std::uint64_t r) { return static_cast<std::uint32_t>(r & ((std::uint64_t{1} << kCodeShift) - 1)); }
inline unsigned thread(std::uint64_t r) { return static_cast<unsigned>(r >> kThreadShift) & 1023; }
inline bool writes(std::uint64_t r) { return (r >> kKindShift) & kWrite; }
inline std::uint64_t pack(std::uint32_t segment, std::uint32_t pc, Accessor by) {
  return segment | std::uint64_t{pc} << kCodeShift | std::uint64_t{by.thread()} << kThreadShift |
         std::uint64_t{by.mask()} << kMaskShift | kind_of(by.flags()) << kKindShift;
}
inline std::uint64_t pack(const GlobalRecord& r) { return r.launch ? pack(r.segment, r.pc, r.by) : 0; }
inline GlobalRecord unpack(std::uint64_t r) {
  r &= ~kSecondReader;
  const std::uint32_t id = segment(r);
  if (id < segments.first()) return GlobalRecord{};
  const Segment& s = segments[id];
  const Accessor by(static_cast<std::uint16_t>(thread(r)), flags_of(r >> kKindShift),
                    static_cast<std::uint8_t>((r >> kMaskShift) & 0xF));
  return GlobalRecord{current_launch, s.block, s.interval, s.clock, s.generation,
                      static_cast<std::uint32_t>(r >> kCodeShift) & ((1u << CodeIds::kBits) - 1), by, id};
}
}  // namespace packed

struct GlobalCell {
  std::uint64_t write;
  std::uint64_t read;  // with packed::kSecondReader
};
static_assert(sizeof(GlobalCell) == 16, "16 bytes a global word");
GlobalCell* global_shadow = nullptr;
std::uint64_t* second_readers = nullptr;  // by granule, where the cell's reader says so

Cell<false> unpack_cell(std::uintptr_t granule) {
  const GlobalCell& g = global_shadow[granule];
  return Cell<false>{packed::unpack(g.write),
                     {packed::unpack(g.read),
                      (g.read & packed::kSecondReader) ? packed::unpack(second_readers[granule]) : GlobalRecord{}}};
}
// Stores what changed: a word that every thread of a block reads keeps its cell unwritten.
void pack_cell(std::uintptr_t granule, const Cell<false>& c) {
  GlobalCell& g = global_shadow[granule];
  const std::uint64_t second = packed::pack(c.read[1]);
  const std::uint64_t write = packed::pack(c.write);
  const std::uint64_t read = packed::pack(c.read[0]) | (second ? packed::kSecondReader : 0);
  if (g.write != write) g.write = write;
  if (g.read != read) g.read = read;
  if (second && second_readers[granule] != second) second_readers[granule] = second;
}
bool race_check_enabled = true;  // the schedule's setting, read once per launch
std::atomic<std::uint32_t> next_run{1};
bool lock_global_cells = false;  // blocks of this launch run on several OS threads

// Blocks on different OS threads may touch one global granule at once: its check holds one of
// these locks (uncontended unless two blocks work on the same word, which is a race or a
// hand-off). Neighbouring granules take locks in different cache lines: blocks that run side by
// side often read neighbouring words (block b reads sums[b]), and locks sharing a line would make
// every core wait for that line.
class GranuleLocks {
 public:
  void lock(std::uintptr_t granule) {
    std::atomic_flag& f = flag(granule);
    while (f.test_and_set(std::memory_order_acquire)) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
  }
  void unlock(std::uintptr_t granule) { flag(granule).clear(std::memory_order_release); }

 private:
  static constexpr std::size_t kLineBytes = 64;
  static constexpr std::size_t kCount = 1 << 14;
  static constexpr std::size_t kLines = kCount / kLineBytes;
  // Granule g takes line g % kLines, byte (g / kLines) % kLineBytes of it.
  std::atomic_flag& flag(std::uintptr_t granule) {
    return flags_[(granule % kLines) * kLineBytes + (granule / kLines) % kLineBytes];
  }
  static_assert(sizeof(std::atomic_flag) == 1, "one lock a byte");
  alignas(kLineBytes) std::atomic_flag flags_[kCount] = {};
};
GranuleLocks granule_locks;
template <typename T>
T* reserve_cells(std::size_t count) {
  void* p = mmap(nullptr, count * sizeof(T), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    std::fprintf(stderr,
                 "scanlab-sim: cannot reserve address space for race detection "
                 "(vm.overcommit_memory=2?); run with SCANLAB_SIM_RACECHECK=off\n");
    std::abort();
  }
  return static_cast<T*>(p);
}

bool is_strong(std::uint8_t flags, bool across_blocks) {
  // Atomics never race with atomics of their scope. Volatile accesses are strong (relaxed,
  // system scope) in the PTX memory model, which matters between blocks; inside a block
  // racecheck treats them as plain accesses, which is what catches warp-synchronous code without
  // __syncwarp.
  if (across_blocks) return ((flags & kAtomic) && !(flags & kBlockScope)) || (flags & kVolatile);
  return flags & kAtomic;
}

// A plain read beside an atomic write is a data race in the PTX memory model (`if (best < v)
// atomicMax(&best, v)`), but the compare-and-swap loops of the CUDA Programming Guide (atomicMax
// on floats, ...) read a guess plainly and let atomicCAS check it. Which it is shows only when
// the reading thread's atomicCAS on the word comes, so such a pair is held until the launch
// ends, and dropped if its read's code turned out to be a guess (guess_code).
bool read_beside_atomic(std::uint8_t a, std::uint8_t b) {
  return ((a & kAtomic) && !(b & kWrite)) || ((b & kAtomic) && !(a & kWrite));
}
struct HeldRace {
  Finding finding;
};
std::mutex held_mutex;
std::map<std::pair<std::uintptr_t, std::uintptr_t>, HeldRace> held_races;  // by (read's code, atomic's code)
std::set<std::uintptr_t> guess_code;  // code of plain reads that their thread's atomicCAS checked

// Whether an earlier access p of this launch, or of an earlier one, is ordered before thread t's.
bool same_warp_ordered(std::uint16_t p_thread, std::uint32_t p_warp_epoch, const Thread* t) {
  // p's lane joined t (directly or through other lanes) in a __syncwarp after p's access ...
  if (p_thread / kWarpSize == t->warp && t->warp_clock[p_thread % kWarpSize] > p_warp_epoch) return true;
  // ... or p's warp joined t's in the sync() of a tile of several warps.
  const WarpClocks* tiles = t->block->race.tile_clocks.get();
  return tiles && (*tiles)[t->warp][p_thread / kWarpSize] > p_warp_epoch;
}
bool ordered(const SharedRecord& p, const Thread* t) {
  const Block* b = t->block;
  if (p.run != b->race.run) return true;  // an earlier block's use of this arena
  if (p.by.thread() == t->linear || p.interval != b->barrier.interval) return true;
  return same_warp_ordered(p.by.thread(), p.warp_epoch, t);
}
memory_order::Stamp stamp_of(const GlobalRecord& p) { return {p.block, p.by.thread(), p.interval, p.clock}; }
bool ordered(const GlobalRecord& p, const Thread* t) {
  if (p.launch != current_launch) return true;
  const Block* b = t->block;
  if (p.block != b->linear) return memory_order::ordered(t, stamp_of(p));
  if (p.by.thread() == t->linear || p.interval != b->barrier.interval) return true;
  return same_warp_ordered(p.by.thread(), p.warp_epoch, t);
}

std::uint32_t block_of(const SharedRecord&, const Thread* t) { return t->block->linear; }
std::uint32_t block_of(const GlobalRecord& p, const Thread*) { return p.block; }
bool recorded(const SharedRecord& p) { return p.run != 0; }
bool recorded(const GlobalRecord& p) { return p.launch != 0; }
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
bool stands_for(const AccessRecord<Shared>& r, const AccessRecord<Shared>& c) {
  return same_epoch(r, c) && r.pc == c.pc && r.by.flags() == c.by.flags() && (r.by.mask() & c.by.mask()) == c.by.mask();
}
template <bool Shared>
bool covered(const AccessRecord<Shared>& r0, const AccessRecord<Shared>& r1, const AccessRecord<Shared>& c) {
  return stands_for<Shared>(r0, c) && stands_for<Shared>(r1, c) && r0.by.thread() / kWarpSize != r1.by.thread() / kWarpSize;
}

const char* role_of(std::uint8_t flags) {
  if (flags & kAtomic) return "atomic";
  if (flags & kWrite) return (flags & kVolatile) ? "volatile write" : "write";
  return (flags & kVolatile) ? "volatile read" : "read";
}

// What the access of block `earlier` would have needed to be ordered before the access of
// block `later`, for a report: which side of the hand-off lacks what, and the one-line fix.
std::string ordering_advice(memory_order::Relation r, const std::string& earlier, const std::string& later) {
  using memory_order::Relation;
  switch (r) {
    case Relation::not_published:
      return "block " + later + " read a flag that block " + earlier + " set after this access, but " + earlier +
             " set it with no release pattern: put __threadfence() between the access and the flag store (or store "
             "the flag with a release atomic)";
    case Relation::other_thread:
      return "another thread of block " + earlier + " set the flag that block " + later + " read, with no barrier "
             "between this access and its fence: a fence covers its own thread's accesses and those before a "
             "barrier it crossed; put __syncthreads() before the __threadfence()";
    case Relation::not_acquired:
      return "block " + earlier + " published this access (a fence before its flag), and block " + later +
             " read the flag, but with no acquire pattern after it: put __threadfence() between reading the flag "
             "and this access (or read the flag with an acquire load)";
    default:
      return "nothing orders the two blocks: blocks run in any order, and a hand-off needs a __threadfence() "
             "between the data and the flag on the writer's side (or a release store) and one between the flag "
             "and the data on the reader's side (or an acquire load)";
  }
}

// Two accesses that no barrier, __syncwarp or hand-off orders: nothing to report (both strong,
// or the compare-and-swap loop's guess), a data race, or a read of a strong write that a flag
// announced without both patterns, which may see the value from before that write.
enum class Verdict : std::uint8_t { none, race, stale, held };

template <bool Shared>
Finding race_finding(const AccessRecord<Shared>& p, const Thread* t, const AccessRecord<Shared>& c,
                     std::uintptr_t address, Verdict verdict) {
  const std::uintptr_t p_pc = code_ids.address(p.pc);
  const std::uintptr_t c_pc = code_ids.address(c.pc);
  const Launch& launch = *t->block->launch;
  const bool shared = Shared;
  const std::uint32_t p_block = block_of(p, t);
  const bool across = p_block != t->block->linear;
  Finding f;
  f.kind = ReportKind::race;
  Party recorded_party{role_of(p.by.flags()), locate(p_pc), true, unflatten(p_block, launch.grid),
                       unflatten(p.by.thread(), launch.block)};
  Party current_party = party(role_of(c.by.flags()), t, locate(c_pc));
  std::uint8_t first = p.by.flags(), second = c.by.flags();
  const std::string earlier_block = format_index(recorded_party.block), later_block = format_index(current_party.block);
  // Blocks run side by side, so which of two racing blocks got there first is timing: the
  // report names the lower-numbered block first, the same whatever the number of cores.
  if (across && p_block > t->block->linear) std::swap(first, second), std::swap(recorded_party, current_party);
  const char* hazard = (first & kWrite) ? ((second & kWrite) ? "write-after-write" : "read-after-write")
                                        : "write-after-read";
  if (verdict == Verdict::stale) {
    f.is_error = false;
    f.headline = "volatile read of global memory may see a stale value (a hand-off without both patterns)";
  } else {
    f.headline = std::string("data race (") + hazard + ") on " + (shared ? "shared" : "global") + " memory";
  }
  f.parties.push_back(recorded_party);
  f.parties.push_back(current_party);
  f.details.push_back("location: " + shared_memory::describe_address(address, *t->block));
  if (!across) {
    std::string after = t->block->barrier.last.file
                            ? "the last barrier of the block was at " + locate(t->block->barrier.last).text()
                            : "no barrier has run since the kernel started";
    f.details.push_back("no barrier separates the two accesses (" + after + ")" +
                        (p.by.thread() / kWarpSize == t->warp ? "; the threads share a warp, but warps do not run in "
                                                           "lockstep: order them with __syncwarp()"
                                                         : ""));
    if (t->block->race.tile_clocks && p.by.thread() / kWarpSize != t->warp)
      f.details.push_back("the sync() of a tile of several warps orders only the threads of its own tile, and only "
                          "when both threads pass it between the accesses: order threads of two tiles with "
                          "__syncthreads() or block.sync()");
  } else {
    if constexpr (!Shared) {
      f.details.push_back(ordering_advice(memory_order::relation(t, stamp_of(p)), earlier_block, later_block));
    }
    if (verdict == Verdict::stale)
      f.details.push_back("volatile accesses are relaxed in the PTX memory model: they never race, but they order "
                          "nothing around them, so a flag does not make this value visible by itself");
  }
  return f;
}

template <bool Shared>
void report_race(const AccessRecord<Shared>& p, const Thread* t, const AccessRecord<Shared>& c, std::uintptr_t address,
                 Verdict verdict) {
  if (!first_time(ReportKind::race, code_ids.address(p.pc), code_ids.address(c.pc))) return;
  report(race_finding<Shared>(p, t, c, address, verdict));
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
  Finding f;
  f.kind = ReportKind::race;
  f.headline = std::string("data race (a plain read beside atomic writes) on ") + (Shared ? "shared" : "global") + " memory";
  f.parties.push_back(Party{role_of(read.by.flags()), locate(key.first)});
  f.parties.push_back(Party{role_of(atomic.by.flags()), locate(key.second)});
  f.details.push_back("threads read the word plainly while others change it with atomics, with nothing between");
  f.details.push_back("a plain read beside an atomic write is a data race in the PTX memory model: read the word "
                      "with an atomic too (atomicAdd(p, 0), cuda::atomic_ref::load), or let atomicCAS check the "
                      "value read, as a compare-and-swap loop does");
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

// A read that a flag announced, of a value another block stored with a strong (atomic or
// volatile) write, where the flag's hand-off lacks a release or an acquire pattern.
template <bool Shared>
bool stale_read_possible(const AccessRecord<Shared>& p, const Thread* t, const AccessRecord<Shared>& c) {
  if constexpr (Shared) {
    return false;
  } else {
    if (!(p.by.flags() & kWrite) || (c.by.flags() & kWrite)) return false;
    const memory_order::Relation r = memory_order::relation(t, stamp_of(p));
    return r != memory_order::Relation::unordered && r != memory_order::Relation::ordered;
  }
}

template <bool Shared>
Verdict judge(const AccessRecord<Shared>& p, const Thread* t, const AccessRecord<Shared>& c) {
  if (!recorded(p) || (p.by.mask() & c.by.mask()) == 0) return Verdict::none;
  const bool across = block_of(p, t) != t->block->linear;
  // Two strong accesses never race (a counter's atomics are judged here without asking how
  // the blocks are ordered).
  if (is_strong(p.by.flags(), across) && is_strong(c.by.flags(), across))
    return across && stale_read_possible<Shared>(p, t, c) ? Verdict::stale : Verdict::none;
  if (ordered(p, t)) return Verdict::none;
  if (read_beside_atomic(p.by.flags(), c.by.flags())) return Verdict::held;
  return Verdict::race;
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

void begin_launch(std::uint32_t launch_id, bool race_check, bool parallel) {
  static std::once_flag shadow_reserved;
  std::call_once(shadow_reserved, [] {
    global_shadow = reserve_cells<GlobalCell>(memory::kGlobalBytes / kGranule);
    second_readers = reserve_cells<std::uint64_t>(memory::kGlobalBytes / kGranule);
    memory::prefer_huge_pages(global_shadow, memory::kGlobalBytes / kGranule * sizeof(GlobalCell));
    shared_shadow = reserve_cells<Cell<true>>(memory::kSharedBytes / kGranule);
  });
  if (!segments.begin_launch()) {
    // Segment numbers start over: forget every record of global memory (all of earlier launches,
    // so ordered before this one, as no record is).
    madvise(global_shadow, memory::kGlobalBytes / kGranule * sizeof(GlobalCell), MADV_DONTNEED);
    madvise(second_readers, memory::kGlobalBytes / kGranule * sizeof(std::uint64_t), MADV_DONTNEED);
  }
  current_launch = launch_id;
  race_check_enabled = race_check;
  held_races.clear();
  guess_code.clear();
  lock_global_cells = parallel;
}

}  // namespace scanlab::sim::detail::race_detector

namespace scanlab::sim::detail::race_shadow {
void forget_range(std::uintptr_t begin, std::size_t bytes) {
  using namespace race_detector;
  if (!global_shadow) return;  // no launch yet: no records
  const std::size_t first = (begin - memory::regions.global_begin) / kGranule;
  const std::size_t count = bytes / kGranule;
  memory::release_whole_pages(&global_shadow[first], count * sizeof(GlobalCell));
  memory::release_whole_pages(&second_readers[first], count * sizeof(std::uint64_t));
}
}  // namespace scanlab::sim::detail::race_shadow

namespace scanlab::sim::detail::race_detector {

void end_launch() {
  for (const auto& [code, held] : held_races) {
    if (guess_code.count(code.first)) continue;
    if (first_time(ReportKind::race, code.first, code.second))
      report(held.finding);
  }
  held_races.clear();
}

void begin_block(Block& b) {
  b.race.run = next_run.fetch_add(1, std::memory_order_relaxed);
  if (b.race.run == 0) {
    // Run numbers wrapped around (after 2^32 blocks): forget every shared-memory record, so that
    // none of a long-gone block passes for this one's.
    madvise(shared_shadow, memory::kSharedBytes / kGranule * sizeof(Cell<true>), MADV_DONTNEED);
    b.race.run = next_run.fetch_add(1, std::memory_order_relaxed);
  }
  b.race.segment = 0;
  // Lane clocks carry over from the slot's previous block: they hold __syncwarp generations of
  // this slot, which only grow, so every one a thread knows is below the generation of any
  // access of the new block. So a block starts without clearing 128 bytes a thread, unless the
  // generation nears its limit (new threads start with clocks of 0).
  constexpr std::uint32_t kGenerationLimit = std::uint32_t{1} << 30;
  if (b.race.generation < kGenerationLimit) return;
  b.race.generation = 0;
  for (unsigned i = 0; i < b.thread_count; ++i) b.threads[i].warp_clock.fill(0);
  if (b.race.tile_clocks) *b.race.tile_clocks = WarpClocks{};
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

// A read while the cell's first reader may conflict with it: it takes the second place, unless
// the two readers there stand for it (see covered()).
__attribute__((noinline)) void remember_second_reader(Cell<true>& cell, Thread* t, std::uint32_t pc_id, Accessor by) {
  const SharedRecord c = shared_record(t, pc_id, by);
  if (!covered<true>(cell.read[0], cell.read[1], c)) put(cell.read[1], c);
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
  return remember_second_reader(cell, t, c.pc, c.by);
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
  if (race_check_enabled) check_races(t, address, bytes, flags, pc);
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
}

}  // namespace scanlab::sim::detail::race_detector
