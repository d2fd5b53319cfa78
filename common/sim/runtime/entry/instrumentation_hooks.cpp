// The entry points that GCC's and Clang's -fsanitize=thread instrumentation calls before every
// load and store of student code. scanlab implements them itself instead of linking the
// ThreadSanitizer runtime (the approach of the Linux kernel's KCSAN): each access of a CUDA
// thread reaches the simulator, which knows the thread, its block and barrier interval.
// This file and the rest of the simulator are compiled without instrumentation.
#include <cstddef>
#include <cstdint>

#include "checks/counters.hpp"
#include "checks/memory_order.hpp"
#include "checks/race_detector.hpp"
#include "findings/report.hpp"
#include "launch/launch_replay.hpp"
#include "memory/global_memory.hpp"
#include "memory/managed_memory.hpp"
#include "memory/memory.hpp"
#include "memory/thrust_access.hpp"
#include "threads/scheduler.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail {
namespace {

using race_detector::kVolatile;
using race_detector::kWrite;

void report_host_access(std::uintptr_t address, std::uint8_t flags, std::uintptr_t pc) {
  if (!first_time(ReportKind::host_access, pc, 0)) return;
  Finding f;
  f.kind = ReportKind::host_access;
  f.headline = std::string("host code ") + ((flags & kWrite) ? "wrote to" : "read from") +
               " device memory through a pointer from cudaMalloc";
  f.parties.push_back(host_party((flags & kWrite) ? "write" : "read", locate(pc)));
  f.details.push_back("location: " + global_memory::describe_address(address));
  f.details.push_back("on a GPU this crashes the program: copy the data with cudaMemcpy instead");
  report(f);
}

__attribute__((noinline)) void access_in_general(void* p, std::size_t bytes, std::uint8_t flags, std::uintptr_t pc) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  Thread* t = current_thread;
  if (!t) {
    // Host code may touch managed memory (after synchronizing), never other device memory,
    // unless it is Thrust's algorithm, which runs "on the device" here (thrust_access.hpp).
    if (memory::regions.ready && memory::in_global(address)) {
      if (managed_memory::host_may_touch(address)) return;
      if (thrust_access::made_by_thrust(pc)) return thrust_access::check(address, bytes, flags & kWrite, pc);
      if (!managed_memory::host_access(address, flags & kWrite, pc)) report_host_access(address, flags, pc);
    } else if (managed_memory::in_managed_variables(address)) {
      managed_memory::host_access(address, flags & kWrite, pc);
    }
    return;
  }
  scheduler::leave_serial_turn(t);
  // A volatile access is how CUDA code spin-waits: give the other threads a turn. Before the
  // access, not after: the load or store follows this hook directly, so a volatile load sees
  // the value that was there when it acquired (a flag seen set was also acquired). Outside
  // shared memory other blocks see it at once: it runs in the serial phase.
  if (flags & kVolatile) {
    if (memory::block_private(address)) scheduler::yield(t, pc);
    else scheduler::cross_block(t, pc);
  }
  // A volatile access is strong and relaxed (system scope); one to a __device__ variable (a flag)
  // hands off like one in global memory.
  if (flags & kVolatile) {
    const bool writes = flags & kWrite;
    memory_order::strong_access(t, address, !writes, writes, memory_order::Order::relaxed, memory_order::Scope::system);
  }
  if (memory::in_window(address)) {
    if (counters::enabled && memory::in_buffer_ranges(address))
      counters::record_access(*t, address, bytes, memory::in_shared(address), flags & kWrite, pc);
    race_detector::check_access(t, address, bytes, flags, pc);
  } else {
    launch_replay::note_access_outside_device_memory(address);
  }
}

// Every access: a plain one of a CUDA thread that did not just take its serial turn, with
// counting off, goes on by jumps alone, so that the hook keeps no frame on the fiber's stack;
// everything else takes the general path.
inline void access(void* p, std::size_t bytes, std::uint8_t flags, std::uintptr_t pc) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  Thread* t = current_thread;
  if (!t || (flags & kVolatile) || t->used_serial_turn || counters::enabled) return access_in_general(p, bytes, flags, pc);
  if (memory::in_window(address)) race_detector::check_access(t, address, bytes, flags, pc);
  else launch_replay::note_access_outside_device_memory(address);
}

}  // namespace
}  // namespace scanlab::sim::detail

using scanlab::sim::detail::access;
using scanlab::sim::detail::race_detector::kRead;
using scanlab::sim::detail::race_detector::kVolatile;
using scanlab::sim::detail::race_detector::kWrite;

#define SCANLAB_RA reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))
#define SCANLAB_SIZED_HOOKS(n)                                                                      \
  extern "C" void __tsan_read##n(void* p) { access(p, n, kRead, SCANLAB_RA); }                      \
  extern "C" void __tsan_write##n(void* p) { access(p, n, kWrite, SCANLAB_RA); }                    \
  extern "C" void __tsan_unaligned_read##n(void* p) { access(p, n, kRead, SCANLAB_RA); }            \
  extern "C" void __tsan_unaligned_write##n(void* p) { access(p, n, kWrite, SCANLAB_RA); }          \
  extern "C" void __tsan_volatile_read##n(void* p) { access(p, n, kRead | kVolatile, SCANLAB_RA); } \
  extern "C" void __tsan_volatile_write##n(void* p) { access(p, n, kWrite | kVolatile, SCANLAB_RA); } \
  extern "C" void __tsan_unaligned_volatile_read##n(void* p) { access(p, n, kRead | kVolatile, SCANLAB_RA); } \
  extern "C" void __tsan_unaligned_volatile_write##n(void* p) { access(p, n, kWrite | kVolatile, SCANLAB_RA); }

SCANLAB_SIZED_HOOKS(1)
SCANLAB_SIZED_HOOKS(2)
SCANLAB_SIZED_HOOKS(4)
SCANLAB_SIZED_HOOKS(8)
SCANLAB_SIZED_HOOKS(16)

extern "C" void __tsan_read_range(void* p, std::size_t n) { access(p, n, kRead, SCANLAB_RA); }
extern "C" void __tsan_write_range(void* p, std::size_t n) { access(p, n, kWrite, SCANLAB_RA); }
extern "C" void __tsan_init() { scanlab::sim::detail::memory::ensure_reserved(); }
extern "C" void __tsan_func_entry(void*) {}
extern "C" void __tsan_func_exit() {}
extern "C" void __tsan_vptr_update(void**, void*) {}
extern "C" void __tsan_vptr_read(void**) {}
