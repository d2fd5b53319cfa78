#include "launch/launch_replay.hpp"

#include <link.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "base/settings.hpp"
#include "checks/counters.hpp"
#include "findings/report.hpp"
#include "memory/global_memory.hpp"

namespace scanlab::sim::detail::launch_replay {

namespace {

using Clock = std::chrono::steady_clock;

// Device memory is compared and kept in chunks: a run that writes part of a buffer keeps only
// the chunks it changed.
constexpr std::size_t kChunkBytes = 64 * 1024;
// What kept results may take in all; a run whose writes would pass it is not kept.
constexpr std::size_t kKeptBytesLimit = std::size_t{2} << 30;
// First runs are kept only while all first runs kept take no more than this: most programs
// launch each kernel once, and results kept for nothing (a scan's output, every pass of a
// radix sort) would add to their peak memory. A larger one is kept from the second launch on.
constexpr std::size_t kFirstRunsKeptBytesLimit = std::size_t{256} << 20;
// A kernel whose launches keep finding device memory changed is not compared again.
constexpr unsigned kMissesBeforeGivingUp = 3;
// Comparing costs a pass over all of device memory; it may take at most this share of the time
// kernels ran (plus a start), so that a program of many short launches over much memory loses
// little when nothing repeats.
constexpr double kComparingShare = 0.25;
constexpr double kComparingStartSeconds = 0.5;

// Device memory at one moment: its live buffers and a hash of each chunk of each, bytes and
// byte map together (a byte that was never written differs from one that holds the same value).
struct Image {
  std::vector<global_memory::Buffer> buffers;
  std::vector<XXH64_hash_t> chunks;  // buffer by buffer, chunk by chunk
  XXH128_hash_t fingerprint{};
};

struct KeptChunk {
  std::uintptr_t begin = 0;
  std::vector<unsigned char> bytes;
  std::vector<std::uint8_t> validity;  // empty where every byte is written (memory::kLive)
};

// One kernel with one configuration, arguments and schedule.
struct Entry {
  unsigned launches = 0;
  unsigned misses = 0;
  bool kept = false;
  bool kept_first_run = false;
  XXH128_hash_t before{};         // device memory before the kept run
  std::vector<KeptChunk> writes;  // the chunks it changed, as it left them
  std::size_t bytes = 0;
};

std::map<std::string, Entry> entries;
std::size_t kept_bytes = 0;            // all kept runs
std::size_t first_runs_kept_bytes = 0;  // those kept at their kernel's first launch
std::size_t replay_count = 0;
double comparing_seconds = 0;
double running_seconds = 0;

template <class T>
void append(std::string& key, const T& value) {
  key.append(reinterpret_cast<const char*>(&value), sizeof value);
}

std::string key_of(const LaunchRequest& r) {
  std::string key;
  append(key, r.thread_entry);
  for (const dim3& d : {r.grid, r.block}) {
    append(key, d.x);
    append(key, d.y);
    append(key, d.z);
  }
  append(key, r.dynamic_shared_bytes);
  const Schedule& s = schedule();
  append(key, s.block_order);
  append(key, s.resident_blocks);
  append(key, s.seed);
  append(key, s.race_check);
  key.append(static_cast<const char*>(r.arguments), r.argument_bytes);
  return key;
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

Image take_image() {
  const auto start = Clock::now();
  Image image;
  image.buffers = global_memory::live_buffers();
  std::vector<std::uint64_t> summary;
  for (const global_memory::Buffer& b : image.buffers) {
    summary.push_back(b.begin);
    summary.push_back(b.bytes);
    const std::uint8_t* validity = memory::validity_of(b.begin);
    for (std::size_t offset = 0; offset < b.bytes; offset += kChunkBytes) {
      const std::size_t n = std::min(kChunkBytes, b.bytes - offset);
      const XXH64_hash_t bytes_hash = XXH3_64bits(reinterpret_cast<const void*>(b.begin + offset), n);
      image.chunks.push_back(XXH3_64bits_withSeed(validity + offset, n, bytes_hash));
    }
  }
  summary.insert(summary.end(), image.chunks.begin(), image.chunks.end());
  image.fingerprint = XXH3_128bits(summary.data(), summary.size() * sizeof(std::uint64_t));
  comparing_seconds += seconds_since(start);
  return image;
}

bool same(const XXH128_hash_t& a, const XXH128_hash_t& b) { return XXH128_isEqual(a, b); }

bool same_buffers(const Image& a, const Image& b) {
  if (a.buffers.size() != b.buffers.size()) return false;
  for (std::size_t i = 0; i < a.buffers.size(); ++i)
    if (a.buffers[i].begin != b.buffers[i].begin || a.buffers[i].bytes != b.buffers[i].bytes) return false;
  return true;
}

// The chunks that differ between two images of the same buffers, as `after` holds them now.
std::vector<KeptChunk> changed_chunks(const Image& before, const Image& after) {
  std::vector<KeptChunk> changed;
  std::size_t chunk = 0;
  for (const global_memory::Buffer& b : after.buffers) {
    for (std::size_t offset = 0; offset < b.bytes; offset += kChunkBytes, ++chunk) {
      if (before.chunks[chunk] == after.chunks[chunk]) continue;
      const std::size_t n = std::min(kChunkBytes, b.bytes - offset);
      KeptChunk c;
      c.begin = b.begin + offset;
      const auto* bytes = reinterpret_cast<const unsigned char*>(c.begin);
      c.bytes.assign(bytes, bytes + n);
      const std::uint8_t* validity = memory::validity_of(c.begin);
      if (std::any_of(validity, validity + n, [](std::uint8_t v) { return v != memory::kLive; }))
        c.validity.assign(validity, validity + n);
      changed.push_back(std::move(c));
    }
  }
  return changed;
}

void forget(Entry& e) {
  kept_bytes -= e.bytes;
  if (e.kept_first_run) first_runs_kept_bytes -= e.bytes;
  e.kept_first_run = false;
  e.bytes = 0;
  e.writes.clear();
  e.writes.shrink_to_fit();
  e.kept = false;
}

void print_note_at_exit() {
  std::fprintf(stderr,
               "scanlab-sim: note: %zu kernel launch%s repeated an earlier one exactly (same kernel, arguments and "
               "device memory) and %s replayed, not run again; SCANLAB_SIM_REPLAY=0 runs every launch\n",
               replay_count, replay_count == 1 ? "" : "es", replay_count == 1 ? "was" : "were");
}

}  // namespace

// Declared in the header, defined here alone, with this file's own types: GCC warns of that where
// the file is compiled in a batch with others (CMake's unity build), as if it were a header.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsubobject-linkage"
#endif
class Attempt {
 public:
  Entry* entry = nullptr;
  bool replayed = false;
  bool watched = false;
  bool first_launch = false;
  Image before;
  unsigned findings_before = 0;
  Clock::time_point start = Clock::now();
};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

void AttemptDeleter::operator()(Attempt* attempt) const { delete attempt; }

namespace {

void watch_from_now(const LaunchRequest& request) {
  watch.call_begin = reinterpret_cast<std::uintptr_t>(request.kernel_call);
  watch.call_bytes = request.kernel_call_bytes;
  watch.unrepeatable.store(false, std::memory_order_relaxed);
  watch.active = true;
}

}  // namespace

AttemptHandle begin(const LaunchRequest& request) {
  AttemptHandle attempt(new Attempt);
  if (!request.replayable || counters::enabled || !schedule().replay) {
    watch_from_now(request);
    return attempt;
  }
  Entry& e = entries[key_of(request)];
  attempt->entry = &e;
  attempt->first_launch = ++e.launches == 1;
  if (e.misses >= kMissesBeforeGivingUp ||
      comparing_seconds > kComparingShare * running_seconds + kComparingStartSeconds) {
    watch_from_now(request);
    return attempt;
  }
  attempt->before = take_image();
  if (e.kept && same(e.before, attempt->before.fingerprint)) {
    for (const KeptChunk& c : e.writes) {
      std::memcpy(reinterpret_cast<void*>(c.begin), c.bytes.data(), c.bytes.size());
      if (c.validity.empty()) memory::mark(c.begin, c.bytes.size(), memory::kLive);
      else std::memcpy(memory::validity_of(c.begin), c.validity.data(), c.validity.size());
    }
    e.misses = 0;
    if (replay_count++ == 0) std::atexit(print_note_at_exit);
    attempt->replayed = true;
    return attempt;
  }
  if (e.kept) ++e.misses;
  attempt->watched = true;
  attempt->findings_before = findings_printed();
  watch_from_now(request);
  attempt->start = Clock::now();
  return attempt;
}

bool replayed(const Attempt& attempt) { return attempt.replayed; }

namespace {

struct Range {
  std::uintptr_t begin, end;
};

int add_read_only_segments(dl_phdr_info* info, std::size_t, void* data) {
  auto& ranges = *static_cast<std::vector<Range>*>(data);
  for (unsigned i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& h = info->dlpi_phdr[i];
    if ((h.p_type == PT_LOAD && !(h.p_flags & PF_W)) || h.p_type == PT_GNU_RELRO)
      ranges.push_back(Range{info->dlpi_addr + h.p_vaddr, info->dlpi_addr + h.p_vaddr + h.p_memsz});
  }
  return 0;
}

}  // namespace

bool in_read_only_memory(std::uintptr_t a) {
  static const std::vector<Range> ranges = [] {
    std::vector<Range> r;
    dl_iterate_phdr(add_read_only_segments, &r);
    return r;
  }();
  for (const Range& r : ranges)
    if (a - r.begin < r.end - r.begin) return true;
  return false;
}

bool repeatable() { return !watch.unrepeatable.load(std::memory_order_relaxed); }

void pause_watch(bool paused) {
  watch.paused = paused;
  watch.active = !paused;
}

void finish(Attempt& attempt, const Launch& launch) {
  watch.active = false;
  running_seconds += seconds_since(attempt.start);
  if (!attempt.watched) return;
  Entry& e = *attempt.entry;
  forget(e);
  if (launch.aborted || launch.error != cudaSuccess || watch.unrepeatable.load(std::memory_order_relaxed)) {
    e.misses = kMissesBeforeGivingUp;  // what made it so would make the next run so too
    return;
  }
  // A run that printed a finding is not kept: its replay would not print it. The next run of a
  // kernel with a known bug meets the same places, each reported once already, and prints
  // nothing: that run is kept, so that a benchmark's hundred launches of it cost two runs.
  if (findings_printed() != attempt.findings_before) {
    ++e.misses;
    return;
  }
  const Image after = take_image();
  if (!same_buffers(attempt.before, after)) return;
  std::vector<KeptChunk> writes = changed_chunks(attempt.before, after);
  std::size_t bytes = 0;
  for (const KeptChunk& c : writes) bytes += c.bytes.size() + c.validity.size();
  if (kept_bytes + bytes > kKeptBytesLimit) return;
  if (attempt.first_launch && first_runs_kept_bytes + bytes > kFirstRunsKeptBytesLimit) return;
  e.before = attempt.before.fingerprint;
  e.writes = std::move(writes);
  e.bytes = bytes;
  e.kept = true;
  e.kept_first_run = attempt.first_launch;
  kept_bytes += bytes;
  if (attempt.first_launch) first_runs_kept_bytes += bytes;
}

}  // namespace scanlab::sim::detail::launch_replay
