// Managed buffers and the launches the host has not yet synchronized with.
#include "memory/managed_memory.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "findings/report.hpp"
#include "memory/global_memory.hpp"

namespace scanlab::sim::detail::managed_memory {
namespace {

struct PendingLaunch {
  Site site;
  cudaStream_t stream;
  std::uint64_t number;
};

std::mutex mutex;
std::map<std::uintptr_t, std::size_t> buffers;  // begin -> bytes
std::vector<PendingLaunch> pending;              // launched, not yet synchronized with
std::uint64_t launch_count = 0;

bool in_buffer(std::uintptr_t a) {
  auto it = buffers.upper_bound(a);
  if (it == buffers.begin()) return false;
  --it;
  return a - it->first < it->second;
}

}  // namespace

void add(const void* p, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  buffers[reinterpret_cast<std::uintptr_t>(p)] = bytes;
}

void remove(const void* p) {
  std::lock_guard<std::mutex> lock(mutex);
  buffers.erase(reinterpret_cast<std::uintptr_t>(p));
}

bool is_managed(std::uintptr_t a) {
  std::lock_guard<std::mutex> lock(mutex);
  return in_buffer(a);
}

void kernel_launched(Site launch, cudaStream_t stream) {
  std::lock_guard<std::mutex> lock(mutex);
  pending.push_back(PendingLaunch{launch, stream, ++launch_count});
}

void synchronized_all() {
  std::lock_guard<std::mutex> lock(mutex);
  pending.clear();
}

void synchronized(cudaStream_t stream) {
  if (!stream) return synchronized_all();  // the legacy default stream waits for every other
  std::lock_guard<std::mutex> lock(mutex);
  pending.erase(std::remove_if(pending.begin(), pending.end(), [&](const PendingLaunch& l) { return l.stream == stream; }),
                pending.end());
}

void synchronized_up_to(cudaStream_t stream, std::uint64_t launches) {
  std::lock_guard<std::mutex> lock(mutex);
  pending.erase(std::remove_if(pending.begin(), pending.end(),
                               [&](const PendingLaunch& l) {
                                 return (!stream || l.stream == stream) && l.number <= launches;
                               }),
                pending.end());
}

std::uint64_t launches_so_far() {
  std::lock_guard<std::mutex> lock(mutex);
  return launch_count;
}

bool host_may_touch(std::uintptr_t address) {
  std::lock_guard<std::mutex> lock(mutex);
  return pending.empty() && in_buffer(address);
}

bool host_access(std::uintptr_t address, bool write, std::uintptr_t pc) {
  Site launch;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!in_managed_variables(address) && !in_buffer(address)) return false;
    if (pending.empty()) return true;
    launch = pending.back().site;
  }
  if (!first_time(ReportKind::host_access, pc, 1)) return true;
  Finding f;
  f.kind = ReportKind::host_access;
  f.headline = std::string("host code ") + (write ? "wrote to" : "read from") +
               " managed memory while a kernel launched before it may still be running";
  f.parties.push_back(host_party(write ? "write" : "read", locate(pc)));
  f.parties.push_back(host_party("launch", locate(launch)));
  if (!in_managed_variables(address)) f.details.push_back("location: " + global_memory::describe_address(address));
  f.details.push_back("a GPU runs the kernel asynchronously: the host " + std::string(write ? "overwrites" : "reads") +
                      " data the kernel may still be using (and a device without concurrent managed access "
                      "faults); call cudaDeviceSynchronize() (or synchronize the kernel's stream) first");
  report(f);
  return true;
}

}  // namespace scanlab::sim::detail::managed_memory
