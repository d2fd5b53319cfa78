// C++ atomics (std::atomic, shared_ptr's reference counts, std::thread internals, and the
// simulator's libcu++ atomics, <cuda/atomic>) in code compiled with -fsanitize=thread become
// calls to __tsan_atomic*, with their memory order. Host code of the labs uses them (the
// multithreaded CPU scan), so they are real atomic operations here. Inside a kernel they are
// also atomic loads, stores and read-modify-writes of their order (of system scope: libcu++'s
// narrower scopes reach memory_order directly, see scanlab/sim/atomic.hpp) and spin-wait points,
// on the path of every access (entry/access.hpp).
#include <cstdint>

#include "base/access.hpp"
#include "checks/memory_order.hpp"
#include "entry/access.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail {
namespace {
enum class Kind { load, store, read_modify_write, compare_exchange };
inline void kernel_atomic(volatile void* p, std::size_t bytes, std::uintptr_t pc, Kind kind, int order) {
  const Scope scope = memory_order::current_atomic_scope();
  Thread* t = current_thread;
  if (!t) return;
  Access a;
  a.address = reinterpret_cast<std::uintptr_t>(const_cast<void*>(p));
  a.bytes = bytes;
  a.kind = kind == Kind::load    ? Access::Kind::read
           : kind == Kind::store ? Access::Kind::write
                                 : Access::Kind::read_modify_write;
  a.strength = Access::Strength::atomic;
  a.order = memory_order::from_cpp(order);
  a.scope = scope;
  a.spin_point = true;
  a.blind = kind == Kind::store;  // a store may be the first write of a location
  a.compare_and_swap = kind == Kind::compare_exchange;
  a.pc = pc;
  access_path::run(t, a);
}
}  // namespace

// An atomic that changed memory is progress, for deadlock detection: a loop of them is not a spin.
inline void progress_if(bool changed) {
  if (Thread* t = current_thread; t && changed) t->stored_since_yield = true;
}
}  // namespace scanlab::sim::detail

#define SCANLAB_PC reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))
using scanlab::sim::detail::Kind;
#define SCANLAB_ENTER(kind) scanlab::sim::detail::kernel_atomic(a, sizeof(*a), SCANLAB_PC, Kind::kind, mo)
using scanlab::sim::detail::progress_if;
#define SCANLAB_STD_ATOMICS(bits, T)                                                                        \
  extern "C" T __tsan_atomic##bits##_load(const volatile T* a, int mo) {                                   \
    scanlab::sim::detail::kernel_atomic(const_cast<volatile T*>(a), sizeof(T), SCANLAB_PC, Kind::load, mo); \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                            \
  }                                                                                                         \
  extern "C" void __tsan_atomic##bits##_store(volatile T* a, T v, int mo) {                                \
    SCANLAB_ENTER(store);                                                                                   \
    progress_if(__atomic_exchange_n(a, v, __ATOMIC_SEQ_CST) != v);                                         \
  }                                                                                                         \
  extern "C" T __tsan_atomic##bits##_exchange(volatile T* a, T v, int mo) {                                \
    SCANLAB_ENTER(read_modify_write);                                                                       \
    const T old = __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                             \
    progress_if(old != v);                                                                                  \
    return old;                                                                                             \
  }                                                                                                         \
  extern "C" T __tsan_atomic##bits##_fetch_add(volatile T* a, T v, int mo) {                               \
    SCANLAB_ENTER(read_modify_write);                                                                       \
    progress_if(v != 0);                                                                                    \
    return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                                      \
  }                                                                                                         \
  extern "C" T __tsan_atomic##bits##_fetch_sub(volatile T* a, T v, int mo) {                               \
    SCANLAB_ENTER(read_modify_write);                                                                       \
    progress_if(v != 0);                                                                                    \
    return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                                      \
  }                                                                                                         \
  extern "C" T __tsan_atomic##bits##_fetch_and(volatile T* a, T v, int mo) {                               \
    SCANLAB_ENTER(read_modify_write);                                                                       \
    const T old = __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                              \
    progress_if(static_cast<T>(old & v) != old);                                                            \
    return old;                                                                                             \
  }                                                                                                         \
  extern "C" T __tsan_atomic##bits##_fetch_or(volatile T* a, T v, int mo) {                                \
    SCANLAB_ENTER(read_modify_write);                                                                       \
    const T old = __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                               \
    progress_if(static_cast<T>(old | v) != old);                                                            \
    return old;                                                                                             \
  }                                                                                                         \
  extern "C" T __tsan_atomic##bits##_fetch_xor(volatile T* a, T v, int mo) {                               \
    SCANLAB_ENTER(read_modify_write);                                                                       \
    progress_if(v != 0);                                                                                    \
    return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                                      \
  }                                                                                                         \
  extern "C" T __tsan_atomic##bits##_fetch_nand(volatile T* a, T v, int mo) {                              \
    SCANLAB_ENTER(read_modify_write);                                                                       \
    const T old = __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                             \
    progress_if(static_cast<T>(~(old & v)) != old);                                                         \
    return old;                                                                                             \
  }                                                                                                         \
  extern "C" int __tsan_atomic##bits##_compare_exchange_strong(volatile T* a, T* expected, T v, int mo, int) { \
    SCANLAB_ENTER(compare_exchange);                                                                        \
    const T want = *expected;                                                                               \
    const bool swapped = __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    progress_if(swapped && want != v);                                                                      \
    return swapped;                                                                                         \
  }                                                                                                         \
  extern "C" int __tsan_atomic##bits##_compare_exchange_weak(volatile T* a, T* expected, T v, int mo, int) { \
    SCANLAB_ENTER(compare_exchange);                                                                        \
    const T want = *expected;                                                                               \
    const bool swapped = __atomic_compare_exchange_n(a, expected, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    progress_if(swapped && want != v);                                                                      \
    return swapped;                                                                                         \
  }                                                                                                         \
  extern "C" T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T expected, T v, int mo, int) {   \
    SCANLAB_ENTER(compare_exchange);                                                                        \
    const T want = expected;                                                                                \
    const bool swapped = __atomic_compare_exchange_n(a, &expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    progress_if(swapped && want != v);                                                                      \
    return expected;                                                                                        \
  }

SCANLAB_STD_ATOMICS(8, std::uint8_t)
SCANLAB_STD_ATOMICS(16, std::uint16_t)
SCANLAB_STD_ATOMICS(32, std::uint32_t)
SCANLAB_STD_ATOMICS(64, std::uint64_t)

extern "C" void __tsan_atomic_thread_fence(int mo) {
  namespace memory_order = scanlab::sim::detail::memory_order;
  if (auto* t = scanlab::sim::detail::current_thread)
    memory_order::fence(t, memory_order::from_cpp(mo), memory_order::current_atomic_scope());
  else __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
extern "C" void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
