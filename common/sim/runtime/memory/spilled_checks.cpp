#include "memory/spilled_checks.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <string>

#include "memory/memory.hpp"

namespace scanlab::sim::detail::memory::spill {
namespace {

enum class Policy { automatic, always, never };

Policy policy() {
  static const Policy p = [] {
    const char* v = std::getenv("SCANLAB_SIM_SPILL");
    if (!v || !*v || std::strcmp(v, "auto") == 0) return Policy::automatic;
    if (std::strcmp(v, "always") == 0) return Policy::always;
    if (std::strcmp(v, "never") == 0) return Policy::never;
    std::fprintf(stderr, "scanlab-sim: SCANLAB_SIM_SPILL=%s: expected auto, always or never\n", v);
    std::exit(2);
  }();
  return p;
}

// What the system could give the program now without swapping (MemAvailable), in bytes; 0 where
// it does not say.
std::size_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:") return kib * 1024;
    std::getline(meminfo, unit);
  }
  return 0;
}

std::mutex mutex;
std::size_t in_memory = 0;  // check bytes of live buffers whose checks stayed in memory

// The file, its next unused offset, and where its stretches are mapped: mapped address -> bytes
// and offset. Stretches are never reused; a freed one is a hole in a sparse file.
int file = -1;
bool file_tried = false;
std::string file_dir;
std::size_t file_end = 0;
struct Stretch {
  std::size_t bytes;
  std::size_t offset;
};
std::map<std::uintptr_t, Stretch> stretches;
bool noted = false;

bool is_memory_filesystem(const char* dir) {
  struct statfs fs {};
  return statfs(dir, &fs) == 0 && (fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC);
}

int open_unnamed_file(const char* dir) {
  int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  // Filesystems without O_TMPFILE: a named file, unlinked at once.
  std::string path = std::string(dir) + "/scanlab-sim-checks-XXXXXX";
  fd = mkstemp(path.data());
  if (fd >= 0) unlink(path.c_str());
  return fd;
}

// Called under `mutex`.
bool ensure_file() {
  if (file_tried) return file >= 0;
  file_tried = true;
  const char* candidates[] = {std::getenv("SCANLAB_SIM_SPILL_DIR"), std::getenv("TMPDIR"), "/var/tmp", "/tmp"};
  for (const char* dir : candidates) {
    if (!dir || !*dir || is_memory_filesystem(dir)) continue;
    file = open_unnamed_file(dir);
    if (file >= 0) {
      file_dir = dir;
      return true;
    }
  }
  std::fprintf(stderr,
               "scanlab-sim: note: no folder on disk could take a file of checks (SCANLAB_SIM_SPILL_DIR, TMPDIR, "
               "/var/tmp and /tmp were tried); the checks stay in memory\n");
  return false;
}

double gib(std::size_t bytes) { return static_cast<double>(bytes) / (1ull << 30); }

}  // namespace

bool decide(std::size_t data_bytes, std::size_t check_bytes, const Site& site) {
  std::lock_guard<std::mutex> lock(mutex);
  bool spill = false;
  switch (policy()) {
    case Policy::always: spill = true; break;
    case Policy::never: spill = false; break;
    case Policy::automatic: {
      // A small buffer's checks always stay: they cannot matter, and /proc/meminfo is read only
      // for the buffers that might.
      constexpr std::size_t kTooSmallToSpill = std::size_t{64} << 20;
      if (check_bytes < kTooSmallToSpill) break;
      const std::size_t available = available_memory();
      // The memory the checks compete for: what the system has available now, and what the checks
      // already in memory hold (MemAvailable has taken off as much of them as was touched). The
      // checks in memory and this buffer's data may take half of it; the other half is for the
      // program's host arrays (often as large as its buffers, and not yet touched when it
      // allocates) and for the pages of spilled checks the system holds.
      spill = available && in_memory + check_bytes + data_bytes > (available + in_memory) / 2;
      break;
    }
  }
  if (spill && !ensure_file()) spill = false;
  if (!spill) {
    in_memory += check_bytes;
    return false;
  }
  if (!noted && policy() == Policy::always) {
    noted = true;
    std::fprintf(stderr, "scanlab-sim: note: SCANLAB_SIM_SPILL=always: buffers' checks are kept in a file in %s\n",
                 file_dir.c_str());
  } else if (!noted) {
    noted = true;
    std::fprintf(stderr,
                 "scanlab-sim: note: the buffer allocated at %s:%u needs %.1f GiB of checks (its byte map and race "
                 "shadow), more than this machine's memory holds beside the program's own: they are kept in a file "
                 "in %s, which the system reads and writes as it needs (slower); so are those of later buffers "
                 "that do not fit\n",
                 site.file ? site.file : "?", site.line, gib(check_bytes), file_dir.c_str());
  }
  return true;
}

void count_in_memory(std::size_t check_bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  in_memory += check_bytes;
}

void forget_in_memory(std::size_t check_bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  in_memory -= check_bytes;
}

bool move_to_file(void* begin, std::size_t bytes) {
  const auto [first, last] = whole_pages(begin, bytes);
  if (last <= first) return true;  // no whole page: the few bytes stay in memory
  std::lock_guard<std::mutex> lock(mutex);
  if (!ensure_file()) return false;
  const std::size_t length = last - first;
  if (ftruncate(file, static_cast<off_t>(file_end + length)) != 0) return false;
  void* p = mmap(reinterpret_cast<void*>(first), length, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, file,
                 static_cast<off_t>(file_end));
  if (p == MAP_FAILED) {
    // MAP_FIXED failed before replacing anything: the range is still the anonymous memory it was.
    return false;
  }
  stretches.emplace(first, Stretch{length, file_end});
  file_end += length;
  return true;
}

void zero_in_file(void* begin, std::size_t bytes) {
  const auto [first, last] = whole_pages(begin, bytes);
  if (last <= first) return;
  std::lock_guard<std::mutex> lock(mutex);
  if (stretches.empty()) return;
  auto it = stretches.upper_bound(first);
  if (it != stretches.begin()) --it;
  for (; it != stretches.end() && it->first < last; ++it) {
    const std::uintptr_t from = std::max(first, it->first);
    const std::uintptr_t to = std::min(last, it->first + it->second.bytes);
    if (from >= to) continue;
    fallocate(file, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(it->second.offset + (from - it->first)),
              static_cast<off_t>(to - from));
  }
}

void bring_back(void* begin, std::size_t bytes) {
  const auto b = reinterpret_cast<std::uintptr_t>(begin);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = stretches.lower_bound(b);
  while (it != stretches.end() && it->first + it->second.bytes <= b + bytes) {
    mmap(reinterpret_cast<void*>(it->first), it->second.bytes, PROT_READ | PROT_WRITE,
         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    fallocate(file, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(it->second.offset),
              static_cast<off_t>(it->second.bytes));
    it = stretches.erase(it);
  }
}

}  // namespace scanlab::sim::detail::memory::spill
