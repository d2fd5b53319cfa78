// C++ atomics (std::atomic, shared_ptr's reference counts, std::thread internals) in code
// compiled with -fsanitize=thread become calls to __tsan_atomic*. Host code of the labs uses
// them (the multithreaded CPU scan), so they are real atomic operations here. Inside a kernel
// they also count as atomic accesses for the race detector and are spin-wait points.
#include <cstdint>

#include "memory.hpp"
#include "race_detector.hpp"
#include "scheduler.hpp"
#include "thread.hpp"

namespace scanlab::sim::detail {
namespace {
// `flags`: kBlind for a store, which may be the first write of a location.
inline void kernel_atomic(volatile void* p, std::size_t bytes, std::uintptr_t pc, std::uint8_t flags = 0) {
  Thread* t = current_thread;
  if (!t) return;
  auto address = reinterpret_cast<std::uintptr_t>(const_cast<void*>(p));
  // Before the operation, which follows this call directly: a spin-wait point inside the
  // block, or an operation other blocks see, which waits for the serial phase.
  if (memory::block_private(address)) scheduler::yield(t, pc);
  else scheduler::cross_block(t, pc);
  if (memory::in_window(address)) {
    race_detector::check_access(t, address, bytes, race_detector::kAtomic | race_detector::kWrite | flags, pc);
    race_detector::acquire(t, address);
    race_detector::release(t, address);
  }
}
}  // namespace
}  // namespace scanlab::sim::detail

#define SCANLAB_PC reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))
#define SCANLAB_STD_ATOMICS(bits, T)                                                                     \
  extern "C" T __tsan_atomic##bits##_load(const volatile T* a, int) {                                   \
    scanlab::sim::detail::kernel_atomic(const_cast<volatile T*>(a), sizeof(T), SCANLAB_PC);            \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                         \
  }                                                                                                      \
  extern "C" void __tsan_atomic##bits##_store(volatile T* a, T v, int) {                                \
    scanlab::sim::detail::kernel_atomic(a, sizeof(T), SCANLAB_PC, scanlab::sim::detail::race_detector::kBlind); \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                            \
  }                                                                                                      \
  extern "C" T __tsan_atomic##bits##_exchange(volatile T* a, T v, int) {                                \
    scanlab::sim::detail::kernel_atomic(a, sizeof(T), SCANLAB_PC);                                       \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                                  \
  }                                                                                                      \
  extern "C" T __tsan_atomic##bits##_fetch_add(volatile T* a, T v, int) {                               \
    scanlab::sim::detail::kernel_atomic(a, sizeof(T), SCANLAB_PC);                                       \
    return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                                   \
  }                                                                                                      \
  extern "C" T __tsan_atomic##bits##_fetch_sub(volatile T* a, T v, int) {                               \
    scanlab::sim::detail::kernel_atomic(a, sizeof(T), SCANLAB_PC);                                       \
    return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                                   \
  }                                                                                                      \
  extern "C" T __tsan_atomic##bits##_fetch_and(volatile T* a, T v, int) {                               \
    scanlab::sim::detail::kernel_atomic(a, sizeof(T), SCANLAB_PC);                                       \
    return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                                   \
  }                                                                                                      \
  extern "C" T __tsan_atomic##bits##_fetch_or(volatile T* a, T v, int) {                                \
    scanlab::sim::detail::kernel_atomic(a, sizeof(T), SCANLAB_PC);                                       \
    return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                                    \
  }                                                                                                      \
  extern "C" T __tsan_atomic##bits##_fetch_xor(volatile T* a, T v, int) {                               \
    scanlab::sim::detail::kernel_atomic(a, sizeof(T), SCANLAB_PC);                                       \
    return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                                   \
  }                                                                                                      \
  extern "C" T __tsan_atomic##bits##_fetch_nand(volatile T* a, T v, int) {                              \
    scanlab::sim::detail::kernel_atomic(a, sizeof(T), SCANLAB_PC);                                       \
    return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                                  \
  }                                                                                                      \
  extern "C" int __tsan_atomic##bits##_compare_exchange_strong(volatile T* a, T* expected, T v, int, int) { \
    scanlab::sim::detail::kernel_atomic(a, sizeof(T), SCANLAB_PC);                                       \
    return __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);       \
  }                                                                                                      \
  extern "C" int __tsan_atomic##bits##_compare_exchange_weak(volatile T* a, T* expected, T v, int, int) { \
    scanlab::sim::detail::kernel_atomic(a, sizeof(T), SCANLAB_PC);                                       \
    return __atomic_compare_exchange_n(a, expected, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);        \
  }                                                                                                      \
  extern "C" T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T expected, T v, int, int) {   \
    scanlab::sim::detail::kernel_atomic(a, sizeof(T), SCANLAB_PC);                                       \
    __atomic_compare_exchange_n(a, &expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);             \
    return expected;                                                                                     \
  }

SCANLAB_STD_ATOMICS(8, std::uint8_t)
SCANLAB_STD_ATOMICS(16, std::uint16_t)
SCANLAB_STD_ATOMICS(32, std::uint32_t)
SCANLAB_STD_ATOMICS(64, std::uint64_t)

extern "C" void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
extern "C" void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
