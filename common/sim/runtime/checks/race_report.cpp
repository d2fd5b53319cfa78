#include "checks/race_report.hpp"

#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "checks/ordering_diagnosis.hpp"
#include "memory/global_memory.hpp"
#include "memory/memory.hpp"
#include "memory/race_shadow.hpp"
#include "threads/block.hpp"
#include "threads/launch.hpp"
#include "threads/shared_memory.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::race_detector {
namespace {

const char* role_of(std::uint8_t flags) {
  if (flags & kAtomic) return "atomic";
  if (flags & kWrite) return (flags & kVolatile) ? "volatile write" : "write";
  return (flags & kVolatile) ? "volatile read" : "read";
}

// What orders two accesses of one block with no barrier between them. __syncwarp() orders only
// the lanes of one warp, so it is the fix only while every race between the two lines stays
// inside one warp; widen_fix() corrects a finding that a later race between other warps proves
// wrong. A block that syncs tiles of several warps needs its sync() reached by both threads.
// `across_warps` names two threads of different warps that race at the same lines, where the
// finding's own pair shares a warp (widen_fix): the fix then says why a warp's sync is not enough.
std::string fix_within_block(bool one_warp, bool uses_tiles, bool uses_barrier_objects,
                             const std::string& across_warps = {}) {
  if (one_warp)
    return "the racing threads share a warp, but warps do not run in lockstep: put __syncwarp() between the "
           "two accesses";
  if (uses_tiles)
    return "the sync() of a tile of several warps orders only the threads of its own tile, and only when both "
           "threads pass it between the accesses: put __syncthreads() (or block.sync()) between the two accesses, "
           "reached by every thread of the block";
  if (uses_barrier_objects)
    return "nothing orders these two accesses of different warps, and this kernel's warps meet at barrier objects, "
           "not at a barrier of the whole block: let the first access's warp arrive on a cuda::barrier after it and "
           "the other warp wait for that phase (try_wait_parity) before its access; a __syncthreads() here would hang "
           "unless every thread of the block reaches it";
  const std::string example = across_warps.empty() ? "" : " too (" + across_warps + ", for one)";
  return "these two lines race between threads of different warps" + example +
         ": put __syncthreads() between the two accesses, reached by every thread of the block";
}

// The size of the smallest tile of fewer than 32 threads that the block made (BlockClocks::
// sub_warp_tiles) and that holds both threads, or 0. Such a tile's sync() reaches the checks as a
// __syncwarp() of its lanes, but the program's call to order the two is the tile's sync().
unsigned shared_sub_warp_tile(const Block& b, unsigned a, unsigned c) {
  for (unsigned size = 1; size < kWarpSize; size <<= 1)
    if ((b.race.sub_warp_tiles & size) && a / size == c / size) return size;
  return 0;
}

std::string fix_within_tile(unsigned size) {
  const std::string n = std::to_string(size);
  return "the racing threads share a tile of " + n + " threads that the kernel made with tiled_partition, and its "
         "threads do not run in lockstep: order the two accesses with the tile's sync() (tile.sync(), a "
         "thread_block_tile<" + n + ">), called by every thread of the tile between them";
}

// Whether an access is strong between blocks: volatile, or an atomic of device or system scope.
// Blocks hand values to one another through such accesses to global memory (flags, status words).
bool strong_between_blocks(std::uint8_t flags) {
  return (flags & kVolatile) || ((flags & kAtomic) && !(flags & kBlockScope));
}

// Two threads of one block race on a word of global memory that both access as blocks hand
// values to one another (volatile or atomic): the block reads a flag or status word that it
// publishes itself, or that a later block publishes. A barrier or __syncwarp() between the two
// would only hide the report: the word tells the block nothing it does not know, and the value
// taken from it is the block's own.
void tell_own_flag(Finding& f) {
  f.headline = "a block reads a word of global memory that it publishes itself (a flag or status word that other "
               "blocks wait on), with no barrier between";
  f.details.push_back("both accesses are volatile or atomic, the accesses blocks hand values to one another with: "
                      "this block reads the word that it (or a block after it) stores for others to read");
  f.fix = "read only the flags or status words that earlier blocks publish: a look-back over the tiles before a "
          "block's own starts at the tile before its own, never at its own or a later one; a barrier or "
          "__syncwarp() here would hide this report and leave the block's own value in what it takes";
  f.fix_scope = FixScope::none;
}

// Whether block `block` has, in this launch, stored strongly to a word of the buffer that holds
// `address` after the 8-byte word there. A block that takes tile after tile (a ticket in a loop)
// publishes each tile's status word in turn, so a word below one it has published is the word of
// a tile it finished before: reading it is right, and its race with the block's own store of it
// is one of ordering within the block, not tell_own_flag's. Read once per finding, so a scan of
// the buffer's shadow cells costs nothing that matters.
bool published_a_later_word(std::uintptr_t address, std::uint32_t block) {
  for (const global_memory::Buffer& buffer : global_memory::live_buffers()) {
    if (address < buffer.begin || address - buffer.begin >= buffer.bytes) continue;
    const std::uintptr_t after = (address & ~std::uintptr_t{7}) + 8;
    const std::uintptr_t end = buffer.begin + buffer.bytes;
    for (std::uintptr_t granule = (after - memory::regions.global_begin) / kGranule;
         granule < (end - memory::regions.global_begin) / kGranule; ++granule) {
      const std::uint64_t write = __atomic_load_n(&global_shadow[granule].write, __ATOMIC_RELAXED);
      if (write == 0) continue;
      const GlobalRecord record = packed::unpack(write);
      if (record.launch != 0 && record.block == block && strong_between_blocks(record.by.flags())) return true;
    }
    return false;
  }
  return false;
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool same_file(const std::string& a, const std::string& b) { return a == b || base_name(a) == base_name(b); }

// Where the block last crossed a barrier, for a reader of `file`, the file of the racing access
// the report names. A barrier in that file needs no more words. One in another file is said to be
// there, and which of the two files includes the other, so that a student looks for it in the
// right one: the file that launched the kernel (`launch_file`) is the one the other was included
// into, as a lab includes the file of the lab before it (a header, an earlier lab's kernels).
// Where the launch is in neither file, which includes which is not known, and only that the
// barrier lies in another file is said.
std::string last_barrier_words(Site last, const std::string& file, const char* launch_file) {
  if (!last.file) return "no barrier has run since the kernel started";
  const SourceLocation at = locate(last);
  const std::string words = "the last barrier of the block was at " + at.text();
  if (file.empty() || same_file(at.file, file)) return words;
  const std::string racing = base_name(file), barrier = base_name(at.file);
  if (launch_file && same_file(launch_file, at.file))
    return words + ", in the file that includes " + racing + " (the racing access is in a function of " + racing +
           " that " + barrier + " calls)";
  if (launch_file && same_file(launch_file, file))
    return words + ", in code that " + racing + " includes (a function that " + racing + " calls crossed it there)";
  return words + ", in " + barrier + ", another file than " + racing + "'s";
}

// The pairs of code addresses whose race was reported with __syncwarp() as its fix (widen_fix).
std::mutex warp_fixed_mutex;
std::set<std::pair<std::uintptr_t, std::uintptr_t>> warp_fixed_lines;

std::pair<std::uintptr_t, std::uintptr_t> line_pair(std::uintptr_t a, std::uintptr_t b) {
  return a < b ? std::make_pair(a, b) : std::make_pair(b, a);
}

}  // namespace

Finding race_finding(const RaceSide& earlier, const Thread* t, std::uintptr_t pc, std::uint8_t flags,
                     std::uintptr_t address, bool shared, Verdict verdict,
                     std::optional<memory_order::Stamp> earlier_stamp) {
  const std::optional<memory_order::Relation> between_blocks =
      earlier_stamp ? std::optional(memory_order::relation(t, *earlier_stamp)) : std::nullopt;
  const Launch& launch = *t->block->launch;
  const bool across = earlier.block != t->block->linear;
  Finding f;
  f.kind = ReportKind::race;
  Party recorded_party{role_of(earlier.flags), locate(earlier.pc), true, unflatten(earlier.block, launch.grid),
                       unflatten(earlier.thread, launch.block)};
  Party current_party = party(role_of(flags), t, locate(pc));
  std::uint8_t first = earlier.flags, second = flags;
  const std::string earlier_block = format_index(recorded_party.block), later_block = format_index(current_party.block);
  // Blocks run side by side, so which of two racing blocks got there first is timing: the
  // report names the lower-numbered block first, the same whatever the number of cores.
  if (across && earlier.block > t->block->linear) std::swap(first, second), std::swap(recorded_party, current_party);
  const char* hazard = (first & kWrite) ? ((second & kWrite) ? "write-after-write" : "read-after-write")
                                        : "write-after-read";
  switch (verdict) {
    case Verdict::stale:
      f.is_error = false;
      f.headline = "volatile read of global memory may see a stale value (a hand-off without both patterns)";
      break;
    case Verdict::unpublished:
      f.headline = "stale value handed on in global memory: the flag was set with no release pattern after this "
                   "volatile or atomic store";
      break;
    case Verdict::ticket:
      f.is_error = false;
      f.headline = "hand-off through an atomic ticket with no acquire after it, in global memory: the PTX memory "
                   "model does not order this access after the ticket";
      break;
    default:
      f.headline = std::string("data race (") + hazard + ") on " + (shared ? "shared" : "global") + " memory";
  }
  f.parties.push_back(recorded_party);
  f.parties.push_back(current_party);
  f.location = shared_memory::describe_address(address, *t->block);
  if (!shared) f.memory = global_memory::subject_of(address);  // shared memory's: the race detector's (race_picture)
  if (!across) {
    const std::string after = last_barrier_words(
        t->block->barrier.last,
        current_party.where.file.empty() ? recorded_party.where.file : current_party.where.file, launch.site.file);
    f.details.push_back("no barrier separates the two accesses (" + after + ")");
    if (!shared && strong_between_blocks(earlier.flags) && strong_between_blocks(flags)) {
      if (!published_a_later_word(address, t->block->linear)) {
        tell_own_flag(f);
        return f;
      }
      f.details.push_back("the word is the status of a tile this block finished before (it has published a later "
                          "tile's since): reading it is right, once the lane that stored it is ordered before the "
                          "lane that reads it");
    }
    // What the program used to order the two, where it names the line that broke it.
    if (ordering_diagnosis::explain(earlier, t, pc, flags, shared, f)) return f;
    const bool one_warp = earlier.thread / kWarpSize == t->warp;
    const unsigned tile = one_warp ? shared_sub_warp_tile(*t->block, earlier.thread, t->linear) : 0;
    f.fix = tile ? fix_within_tile(tile)
                 : fix_within_block(one_warp, t->block->race.tile_clocks != nullptr,
                                    ordering_diagnosis::uses_barrier_objects(*t->block));
    f.fix_scope = one_warp ? FixScope::warp : FixScope::block;
    if (one_warp) {
      std::lock_guard<std::mutex> lock(warp_fixed_mutex);
      warp_fixed_lines.insert(line_pair(earlier.pc, pc));
    }
  } else {
    if (between_blocks) {
      f.fix = memory_order::advice(*between_blocks, earlier_block, later_block);
      if (const char* missing = memory_order::missing_side(*between_blocks)) f.handoff_missing = missing;
    }
    // The flag that announced the data, where the reader (or its block) read one: its store and
    // its read, after the data's two accesses, so that a reader of the record draws all four steps.
    if (earlier_stamp)
      if (const auto flag = memory_order::flag_steps(t, *earlier_stamp)) {
        auto flag_party = [&](const char* role, const memory_order::FlagAccess& a) {
          return Party{role, locate(a.pc), true, unflatten(a.block, launch.grid), unflatten(a.thread, launch.block)};
        };
        if (flag->store.pc) f.parties.push_back(flag_party("flag store", flag->store));
        if (flag->read.pc) f.parties.push_back(flag_party("flag read", flag->read));
      }
    if (verdict == Verdict::stale || verdict == Verdict::unpublished)
      f.details.push_back("volatile accesses are relaxed in the PTX memory model: they never race, but they order "
                          "nothing around them, so a flag does not make this value visible by itself");
    if (verdict == Verdict::unpublished)
      f.details.push_back("on a GPU the flag can become visible before the value it announces, and the reader "
                          "goes on with the old value: a fence (or a release store of the flag) is what orders them");
    if (verdict == Verdict::ticket) {
      // `flags` is the access of the thread that took the ticket, whichever party is named first
      const char* access = (flags & kAtomic) ? "updated the data" : (flags & kWrite) ? "wrote over the data"
                                                                                      : "read the data";
      f.details.push_back(std::string("the flag was taken with an atomic read-modify-write (a ticket, a counter), "
                                      "and this access ") +
                          access + " with no fence after the atomic; a reader that polls a flag with plain or volatile "
                                   "loads instead is a data race (an error)");
    }
  }
  return f;
}

Finding read_beside_atomics_finding(std::uintptr_t read_pc, std::uint8_t read_flags, std::uintptr_t atomic_pc,
                                    std::uint8_t atomic_flags, bool shared) {
  Finding f;
  f.kind = ReportKind::race;
  f.headline = std::string("data race (a plain read beside atomic writes) on ") + (shared ? "shared" : "global") + " memory";
  f.parties.push_back(Party{role_of(read_flags), locate(read_pc)});
  f.parties.push_back(Party{role_of(atomic_flags), locate(atomic_pc)});
  f.details.push_back("threads read the word plainly while others change it with atomics, with nothing between");
  f.fix = "a plain read beside an atomic write is a data race in the PTX memory model: read the word with an "
          "atomic too (atomicAdd(p, 0), cuda::atomic_ref::load), or let atomicCAS check the value read, as a "
          "compare-and-swap loop does";
  return f;
}

bool widen_fix(const RaceSide& earlier, const Thread* t, std::uintptr_t pc) {
  if (earlier.block != t->block->linear || earlier.thread / kWarpSize == t->warp) return false;
  // A block's findings wait until its phase ends, so the races of one barrier interval between
  // the same two lines usually correct the finding before anyone reads it.
  Finding* waiting = waiting_finding(ReportKind::race, earlier.pc, pc);
  // Only a warp's fix needs widening (none is a block's own flag, tell_own_flag; block is wide).
  if (waiting && waiting->fix_scope == FixScope::warp) {
    const Launch& launch = *t->block->launch;
    const std::string across_warps = "thread " + format_index(unflatten(earlier.thread, launch.block)) +
                                     " and thread " + format_index(unflatten(t->linear, launch.block));
    waiting->fix = fix_within_block(false, t->block->race.tile_clocks != nullptr,
                                    ordering_diagnosis::uses_barrier_objects(*t->block), across_warps);
    waiting->fix_scope = FixScope::block;
  }
  std::lock_guard<std::mutex> lock(warp_fixed_mutex);
  return warp_fixed_lines.erase(line_pair(earlier.pc, pc)) > 0 &&
         !waiting_finding(ReportKind::race, earlier.pc, pc);
}

}  // namespace scanlab::sim::detail::race_detector
