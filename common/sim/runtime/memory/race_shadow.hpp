// The race detector's shadow of device memory: for each 4-byte word, its last write and up to two
// readers of the current stretch, with who made them (block, thread, barrier interval, fence
// clock, __syncwarp generation) and how (the bytes, read or write, atomic or volatile); how a
// record is packed; the launch's table of segments that global records name. The race detector
// (checks/race_detector.cpp) judges an access against its cell and writes the cell; this file
// keeps the cells, inline where every access of lab code reads them.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <type_traits>

#include "base/device_limits.hpp"

namespace scanlab::sim::detail::race_detector {

// kBlind: a write that does not read what was there (atomicExch, an atomic store).
// kBlockScope: an atomic of block scope (atomicAdd_block, thread_scope_block), which is atomic
// only for the threads of its block: beside another block's access it is a plain one.
// kCompareAndSwap: atomicCAS, compare_exchange: it checks the guess its thread read before.
enum AccessFlags : std::uint8_t {
  kRead = 0, kWrite = 1, kAtomic = 2, kVolatile = 4, kBlind = 8, kBlockScope = 16, kCompareAndSwap = 32
};

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
// The program's code addresses, numbered.
extern __attribute__((visibility("hidden"))) CodeIds code_ids;

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

// One cell per word of shared memory (every resident block's arena).
extern __attribute__((visibility("hidden"))) Cell<true>* shared_shadow;
// The launch whose accesses are current; records of earlier launches are ordered before it.
extern __attribute__((visibility("hidden"))) std::uint32_t current_launch;

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
extern __attribute__((visibility("hidden"))) Segments segments;

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
extern __attribute__((visibility("hidden"))) GlobalCell* global_shadow;
extern __attribute__((visibility("hidden"))) std::uint64_t* second_readers;  // by granule, where the cell's reader says so

inline Cell<false> unpack_cell(std::uintptr_t granule) {
  const GlobalCell& g = global_shadow[granule];
  return Cell<false>{packed::unpack(g.write),
                     {packed::unpack(g.read),
                      (g.read & packed::kSecondReader) ? packed::unpack(second_readers[granule]) : GlobalRecord{}}};
}
// Stores what changed: a word that every thread of a block reads keeps its cell unwritten.
inline void pack_cell(std::uintptr_t granule, const Cell<false>& c) {
  GlobalCell& g = global_shadow[granule];
  const std::uint64_t second = packed::pack(c.read[1]);
  const std::uint64_t write = packed::pack(c.write);
  const std::uint64_t read = packed::pack(c.read[0]) | (second ? packed::kSecondReader : 0);
  if (g.write != write) g.write = write;
  if (g.read != read) g.read = read;
  if (second && second_readers[granule] != second) second_readers[granule] = second;
}

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
extern __attribute__((visibility("hidden"))) GranuleLocks granule_locks;

// The shadow's address space, reserved once (pages are taken where touched).
void reserve_shadow();
// The shadow exists from the first launch on; a launch forgets the segments of the last one.
void begin_launch_shadow(std::uint32_t launch_id);
// The shadow cells of a new buffer's range are kept in the file of spilled checks
// (memory/spilled_checks.hpp); false where some of them could not be moved and stay in memory.
bool move_shadow_to_file(std::uintptr_t begin, std::size_t bytes);
// Block runs are numbered afresh: every shared-memory record is forgotten.
void forget_shared_records();
// A freed global buffer: its records are dropped and their pages given back (a file's too).
void forget_range(std::uintptr_t begin, std::size_t bytes);

}  // namespace scanlab::sim::detail::race_detector
