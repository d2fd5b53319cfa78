// The entry points that GCC's and Clang's -fsanitize=thread instrumentation calls before every
// load and store of student code. scanlab implements them itself instead of linking the
// ThreadSanitizer runtime (the approach of the Linux kernel's KCSAN): each access of a CUDA
// thread reaches the simulator, which knows the thread, its block and barrier interval.
// This file and the rest of the simulator are compiled without instrumentation.
#include <cstddef>
#include <cstdint>

#include "base/access.hpp"
#include "entry/access.hpp"
#include "findings/report.hpp"
#include "memory/global_memory.hpp"
#include "memory/host_checked_ranges.hpp"
#include "memory/managed_memory.hpp"
#include "memory/memory.hpp"
#include "memory/thrust_access.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail {
namespace {

using Kind = Access::Kind;
using Strength = Access::Strength;

void report_host_access(std::uintptr_t address, bool writes, std::uintptr_t pc) {
  if (!first_time(ReportKind::host_access, pc, 0)) return;
  Finding f;
  f.kind = ReportKind::host_access;
  f.headline = std::string("host code ") + (writes ? "wrote to" : "read from") +
               " device memory through a pointer from cudaMalloc";
  f.parties.push_back(host_party(writes ? "write" : "read", locate(pc)));
  f.details.push_back("location: " + global_memory::describe_address(address));
  f.details.push_back("on a GPU this crashes the program: copy the data with cudaMemcpy instead");
  report(f);
}

// Host code may touch managed memory (after synchronizing), never other device memory, unless it
// is Thrust's algorithm, which runs "on the device" here (thrust_access.hpp).
void host_access(const Access& a) {
  memory::check_host_addresses_only();  // host code's next accesses elsewhere skip the hook
  const bool writes = a.kind == Kind::write;
  if (memory::regions.ready && memory::in_global(a.address)) {
    if (managed_memory::host_may_touch(a.address)) return;
    if (thrust_access::made_by_thrust(a.pc)) return thrust_access::check(a.address, a.bytes, writes, a.pc);
    if (!managed_memory::host_access(a.address, writes, a.pc)) report_host_access(a.address, writes, a.pc);
  } else if (managed_memory::in_managed_variables(a.address)) {
    managed_memory::host_access(a.address, writes, a.pc);
  }
}

// A volatile access is how CUDA code spin-waits: a spin-wait point, strong and relaxed (system
// scope) between blocks.
Access access_of(void* p, std::size_t bytes, Kind kind, Strength strength, std::uintptr_t pc) {
  Access a;
  a.address = reinterpret_cast<std::uintptr_t>(p);
  a.bytes = bytes;
  a.kind = kind;
  a.strength = strength;
  a.spin_point = strength == Strength::volatile_access;
  a.pc = pc;
  return a;
}

// Out of line, from arguments that travel in registers: the common path below calls it only
// where it does not go on by jumps alone.
__attribute__((noinline)) void access_in_general(void* p, std::size_t bytes, Kind kind, Strength strength,
                                                 std::uintptr_t pc) {
  const Access a = access_of(p, bytes, kind, strength, pc);
  if (Thread* t = current_thread) access_path::run(t, a);
  else host_access(a);
}

// Every access: a plain one of a CUDA thread whose path is its checks alone goes on by jumps
// alone, so that the hook keeps no frame on the fiber's stack; everything else takes the general
// path.
inline void access(void* p, std::size_t bytes, Kind kind, Strength strength, std::uintptr_t pc) {
  const Access a = access_of(p, bytes, kind, strength, pc);
  Thread* t = current_thread;
  if (!t || !access_path::checks_only(t, a)) return access_in_general(p, bytes, kind, strength, pc);
  access_path::check(t, a);
}

}  // namespace
}  // namespace scanlab::sim::detail

using scanlab::sim::detail::access;
constexpr auto kRead = scanlab::sim::detail::Access::Kind::read;
constexpr auto kWrite = scanlab::sim::detail::Access::Kind::write;
constexpr auto kPlain = scanlab::sim::detail::Access::Strength::plain;
constexpr auto kVolatile = scanlab::sim::detail::Access::Strength::volatile_access;

#define SCANLAB_RA reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))
#define SCANLAB_SIZED_HOOKS(n)                                                                                   \
  extern "C" void __tsan_read##n(void* p) { access(p, n, kRead, kPlain, SCANLAB_RA); }                           \
  extern "C" void __tsan_write##n(void* p) { access(p, n, kWrite, kPlain, SCANLAB_RA); }                         \
  extern "C" void __tsan_unaligned_read##n(void* p) { access(p, n, kRead, kPlain, SCANLAB_RA); }                 \
  extern "C" void __tsan_unaligned_write##n(void* p) { access(p, n, kWrite, kPlain, SCANLAB_RA); }               \
  extern "C" void __tsan_volatile_read##n(void* p) { access(p, n, kRead, kVolatile, SCANLAB_RA); }               \
  extern "C" void __tsan_volatile_write##n(void* p) { access(p, n, kWrite, kVolatile, SCANLAB_RA); }             \
  extern "C" void __tsan_unaligned_volatile_read##n(void* p) { access(p, n, kRead, kVolatile, SCANLAB_RA); }     \
  extern "C" void __tsan_unaligned_volatile_write##n(void* p) { access(p, n, kWrite, kVolatile, SCANLAB_RA); }

SCANLAB_SIZED_HOOKS(1)
SCANLAB_SIZED_HOOKS(2)
SCANLAB_SIZED_HOOKS(4)
SCANLAB_SIZED_HOOKS(8)
SCANLAB_SIZED_HOOKS(16)

extern "C" void __tsan_read_range(void* p, std::size_t n) { access(p, n, kRead, kPlain, SCANLAB_RA); }
extern "C" void __tsan_write_range(void* p, std::size_t n) { access(p, n, kWrite, kPlain, SCANLAB_RA); }
extern "C" void __tsan_init() { scanlab::sim::detail::memory::ensure_reserved(); }
extern "C" void __tsan_func_entry(void*) {}
extern "C" void __tsan_func_exit() {}
extern "C" void __tsan_vptr_update(void**, void*) {}
extern "C" void __tsan_vptr_read(void**) {}
