#include "checks/race_picture.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "base/settings.hpp"
#include "findings/report.hpp"
#include "memory/memory.hpp"
#include "memory/race_shadow.hpp"
#include "threads/block.hpp"
#include "threads/shared_memory.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::race_picture {

std::atomic<bool> recording{race_picture_request().wanted};

namespace {

using race_detector::kAtomic;
using race_detector::kWrite;

// The window kept: this many bytes on either side of the byte asked for, enough for 16 cells of
// the widest element a lab scans on either side; take() cuts it to the cells drawn.
constexpr std::size_t kWindowBytes = 16 * 16;
constexpr long kCellsDrawn = 32;
constexpr std::uint32_t kIntervalsDrawn = 3;  // the race's interval and the two before it
constexpr std::size_t kMaxKept = 4096;        // accesses kept; a loop over the window fills no more

struct Kept {
  std::uint32_t interval;
  unsigned thread;
  std::uint8_t flags;
  std::size_t offset;  // in the variable
  std::uintptr_t pc;
};

// The recorder's state: only the followed block's threads touch it, and a block runs on one OS
// thread at a time.
std::atomic<std::uint32_t> followed_run{0};  // the race detector's run number of the followed block; 0: none
bool resolved = false;           // the variable asked for was found in the block's shared memory
std::uintptr_t variable_begin = 0;
std::size_t variable_bytes = 0;
std::size_t window_begin = 0, window_end = 0;  // offsets kept
std::vector<Kept> kept;
std::set<std::tuple<std::uint32_t, unsigned, std::size_t, std::uintptr_t, std::uint8_t>> seen;
std::map<std::uint32_t, Site> barrier_before;  // interval -> the barrier that began it
std::uint32_t latest_interval = 0;
bool truncated = false;
std::uintptr_t last_address = 0;  // the followed block's last access in the window
std::size_t last_bytes = 0;

const char* role_of(std::uint8_t flags) {
  if (flags & kAtomic) return "atomic";
  return (flags & kWrite) ? "write" : "read";
}

void resolve(const Block& b) {
  const RacePictureRequest& request = race_picture_request();
  const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(b.shared.base);
  for (const shared_memory::Variable& v : b.shared.variables) {
    if (request.variable != v.name || request.byte >= v.bytes) continue;
    variable_begin = base + v.offset;
    variable_bytes = v.bytes;
    window_begin = request.byte > kWindowBytes ? request.byte - kWindowBytes : 0;
    window_end = std::min(v.bytes, request.byte + kWindowBytes);
    resolved = true;
    return;
  }
}

// A new interval: what is older than the intervals drawn is forgotten.
void enter_interval(const Block& b) {
  latest_interval = b.barrier.interval;
  barrier_before[latest_interval] = b.barrier.last;
  if (latest_interval <= kIntervalsDrawn) return;
  const std::uint32_t oldest = latest_interval - (kIntervalsDrawn - 1);
  barrier_before.erase(barrier_before.begin(), barrier_before.lower_bound(oldest));
  kept.erase(std::remove_if(kept.begin(), kept.end(), [&](const Kept& k) { return k.interval < oldest; }), kept.end());
  for (auto it = seen.begin(); it != seen.end();) it = std::get<0>(*it) < oldest ? seen.erase(it) : std::next(it);
}

SourceLocation where_of(std::uintptr_t pc, std::map<std::uintptr_t, SourceLocation>& known) {
  auto it = known.find(pc);
  if (it == known.end()) it = known.emplace(pc, locate(pc)).first;
  return it->second;
}

// The accesses kept in the picture's window and intervals, in the order they happened.
void fill_accesses(RacePicture& p) {
  std::map<std::uintptr_t, SourceLocation> known;
  p.accesses.clear();
  const std::uint32_t oldest = p.intervals.front().number;
  for (const Kept& k : kept) {
    const long cell = static_cast<long>(k.offset / p.element_bytes);
    if (k.interval < oldest || cell < p.first_cell || cell >= p.first_cell + p.cells) continue;
    p.accesses.push_back(PictureAccess{cell, k.interval, k.thread, role_of(k.flags), where_of(k.pc, known)});
  }
  p.truncated = truncated;
}

// The race is found at its second access, while the other threads of its interval have not all
// run: the picture taken then goes on filling until the interval ends, in the finding that waits
// with the block's others to be printed (findings/report.hpp, waiting_finding).
struct Completing {
  bool active = false;
  std::uint32_t interval = 0;
  std::uintptr_t earlier_pc = 0, later_pc = 0;
};
Completing completing;

void complete() {
  completing.active = false;
  recording.store(false, std::memory_order_relaxed);
  Finding* waiting = waiting_finding(ReportKind::race, completing.earlier_pc, completing.later_pc);
  if (waiting && waiting->picture) fill_accesses(*waiting->picture);
}

}  // namespace

void begin_block(const Block& b) {
  if (!recording.load(std::memory_order_relaxed)) return;
  const RacePictureRequest& request = race_picture_request();
  // Blocks start on several OS threads: only the block asked for, whose earlier run has ended
  // (one launch runs at a time), touches the recorder's state.
  if (b.index.x != request.block[0] || b.index.y != request.block[1] || b.index.z != request.block[2]) return;
  if (completing.active) {
    // The race's block ended in its race's interval: its finding was printed with what was kept.
    completing.active = false;
    recording.store(false, std::memory_order_relaxed);
    return;
  }
  followed_run.store(b.race.run, std::memory_order_relaxed);
  resolved = false;
  kept.clear();
  seen.clear();
  barrier_before.clear();
  latest_interval = 0;
  truncated = false;
  last_bytes = 0;
}

void barrier_crossed(const Block& b) {
  const std::uint32_t followed = followed_run.load(std::memory_order_relaxed);
  if (b.race.run != followed || followed == 0) return;
  // The race's interval has ended: its picture is complete, as at the interval's next access.
  if (completing.active) return complete();
  if (b.barrier.interval != latest_interval) enter_interval(b);
}

void note(const Thread* t, std::uintptr_t address, std::size_t bytes, std::uint8_t flags, std::uintptr_t pc) {
  const Block& b = *t->block;
  const std::uint32_t followed = followed_run.load(std::memory_order_relaxed);
  if (b.race.run != followed || followed == 0) return;
  if (completing.active && b.barrier.interval != completing.interval) return complete();
  if (b.barrier.interval != latest_interval) enter_interval(b);
  if (!memory::in_shared(address)) return;
  if (!resolved) resolve(b);
  if (!resolved || address < variable_begin + window_begin || address >= variable_begin + window_end) return;
  last_address = address;
  last_bytes = bytes;
  const std::size_t offset = address - variable_begin;
  const std::uint8_t kind = flags & (kWrite | kAtomic);
  if (!seen.emplace(b.barrier.interval, t->linear, offset, pc, kind).second) return;
  if (kept.size() >= kMaxKept) {
    truncated = true;
    return;
  }
  kept.push_back(Kept{b.barrier.interval, t->linear, kind, offset, pc});
}

std::optional<RacePicture> take(const Thread* t, std::uintptr_t address, std::uintptr_t pc, std::uint8_t flags,
                                unsigned earlier_thread, std::uintptr_t earlier_pc, std::uint8_t earlier_flags) {
  const Block& b = *t->block;
  if (!recording.load(std::memory_order_relaxed) || completing.active ||
      b.race.run != followed_run.load(std::memory_order_relaxed) || !resolved)
    return std::nullopt;
  if (address < variable_begin + window_begin || address >= variable_begin + window_end) return std::nullopt;
  // The first race asked for is the one drawn; its interval is still kept until it ends.
  completing = Completing{true, b.barrier.interval, earlier_pc, pc};
  RacePicture p;
  const RacePictureRequest& request = race_picture_request();
  p.subject.variable = request.variable;
  p.subject.byte = request.byte;
  std::copy(request.block, request.block + 3, p.subject.block);
  // A cell is an element of the size of the racing access (this thread's last one in the window).
  const bool covers = last_bytes && address >= last_address && address < last_address + last_bytes;
  p.element_bytes = static_cast<unsigned>(covers && last_bytes <= 64 ? last_bytes : 4);
  p.variable_cells = static_cast<long>(variable_bytes / p.element_bytes);
  const long race_cell = static_cast<long>((address - variable_begin) / p.element_bytes);
  const long window_first = static_cast<long>(window_begin / p.element_bytes);
  const long window_last = static_cast<long>((window_end + p.element_bytes - 1) / p.element_bytes);
  p.first_cell = std::max(window_first, race_cell - kCellsDrawn / 2);
  const long end = std::min(window_last, p.first_cell + kCellsDrawn);
  p.first_cell = std::max(window_first, end - kCellsDrawn);
  p.cells = end - p.first_cell;
  const std::uint32_t race_interval = b.barrier.interval;
  const std::uint32_t oldest = race_interval > kIntervalsDrawn ? race_interval - (kIntervalsDrawn - 1) : 1;
  for (std::uint32_t n = oldest; n <= race_interval; ++n) {
    PictureInterval v;
    v.number = n;
    if (auto it = barrier_before.find(n); it != barrier_before.end() && it->second.file) {
      v.barrier_known = true;
      v.barrier = locate(it->second);
    }
    p.intervals.push_back(v);
  }
  fill_accesses(p);
  std::map<std::uintptr_t, SourceLocation> known;
  p.racing[0] = PictureAccess{race_cell, race_interval, earlier_thread, role_of(earlier_flags), where_of(earlier_pc, known)};
  p.racing[1] = PictureAccess{race_cell, race_interval, t->linear, role_of(flags), where_of(pc, known)};
  return p;
}

std::optional<MemorySubject> subject_of(const Thread* t, std::uintptr_t address) {
  if (!memory::in_shared(address)) return std::nullopt;
  const Block& b = *t->block;
  const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(b.shared.base);
  for (const shared_memory::Variable& v : b.shared.variables) {
    const std::uintptr_t begin = base + v.offset;
    if (address < begin || address >= begin + v.bytes) continue;
    MemorySubject s;
    s.variable = v.name;
    s.byte = address - begin;
    s.block[0] = b.index.x, s.block[1] = b.index.y, s.block[2] = b.index.z;
    return s;
  }
  return std::nullopt;
}

}  // namespace scanlab::sim::detail::race_picture
