// libcu++'s atomics, <cuda/atomic> and <cuda/std/atomic>, for the simulator: cuda::atomic_ref,
// cuda::atomic (with a thread scope), cuda::std::atomic and cuda::std::atomic_ref (system
// scope), cuda::atomic_thread_fence, the memory orders and thread scopes, spelt as the CUDA
// toolkit's headers spell them (CUDA 13's <cuda/atomic>, read for this).
//
// Each operation is one GCC atomic builtin with the operation's memory order. Lab code is
// compiled with ThreadSanitizer's instrumentation, which turns the builtin into a
// __tsan_atomic* call that carries the order to the simulator (runtime/entry/std_atomic_hooks.cpp);
// a block or thread scope is announced just before it, since the call carries none. Fences,
// which that instrumentation does not pass on, call the simulator directly. The
// simulator's memory model then checks these like atomicAdd, __threadfence and volatile
// accesses: a release store or read-modify-write is a release pattern, an acquire load or
// read-modify-write an acquire pattern, and block scope orders nothing for another block.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstring>
#include <type_traits>

namespace scanlab::sim {
// The next atomic operation of this OS thread is of block scope (runtime/checks/memory_order.cpp).
void next_atomic_of_block_scope();
// A fence of a C++ memory order (relaxed = 0 ... seq_cst = 5), of block scope or wider
// (runtime/entry/atomics.cpp): ThreadSanitizer's instrumentation does not pass fences on.
void thread_fence(int order, bool block_scope);
}  // namespace scanlab::sim

// Inlined into the program's code, so that the atomic's call into the simulator comes from the
// program's line, which reports name (runtime/findings/report.cpp skips this header's lines).
#define SCANLAB_SIM_ATOMIC_INLINE __attribute__((always_inline)) inline

namespace cuda {
namespace std {

using memory_order = ::std::memory_order;
using ::std::memory_order_acq_rel;
using ::std::memory_order_acquire;
using ::std::memory_order_consume;
using ::std::memory_order_relaxed;
using ::std::memory_order_release;
using ::std::memory_order_seq_cst;

enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 10 };

namespace detail {

constexpr int order_of(memory_order m) { return static_cast<int>(m); }
// The order of a compare-and-exchange's failure: no release part.
constexpr int failure_order_of(memory_order m) {
  return m == memory_order_acq_rel ? __ATOMIC_ACQUIRE : m == memory_order_release ? __ATOMIC_RELAXED : order_of(m);
}

template <thread_scope Scope>
SCANLAB_SIM_ATOMIC_INLINE void announce_scope() {
  if constexpr (Scope == thread_scope_block || Scope == thread_scope_thread) scanlab::sim::next_atomic_of_block_scope();
}

// The operations on one object of type T at `p`, shared by atomic and atomic_ref.
template <class T, thread_scope Scope>
struct operations {
  static_assert(::std::is_trivially_copyable_v<T>, "cuda::atomic needs a trivially copyable type");
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "the simulator's cuda::atomic supports types of 1, 2, 4 and 8 bytes");

  SCANLAB_SIM_ATOMIC_INLINE static T load(const T* p, memory_order m) {
    T v;
    announce_scope<Scope>();
    __atomic_load(const_cast<T*>(p), &v, order_of(m));
    return v;
  }
  SCANLAB_SIM_ATOMIC_INLINE static void store(T* p, T v, memory_order m) {
    announce_scope<Scope>();
    __atomic_store(p, &v, order_of(m));
  }
  SCANLAB_SIM_ATOMIC_INLINE static T exchange(T* p, T v, memory_order m) {
    T old;
    announce_scope<Scope>();
    __atomic_exchange(p, &v, &old, order_of(m));
    return old;
  }
  SCANLAB_SIM_ATOMIC_INLINE static bool compare_exchange(T* p, T& expected, T desired, bool weak, memory_order success, memory_order failure) {
    announce_scope<Scope>();
    return __atomic_compare_exchange(p, &expected, &desired, weak, order_of(success), failure_order_of(failure));
  }
  // Read-modify-writes with no builtin for T (floating point, min, max): a compare-and-exchange loop.
  template <class F>
  SCANLAB_SIM_ATOMIC_INLINE static T update(T* p, F f, memory_order m) {
    T expected = load(p, memory_order_relaxed);
    while (!compare_exchange(p, expected, f(expected), false, m, memory_order_relaxed)) {
    }
    return expected;
  }
  SCANLAB_SIM_ATOMIC_INLINE static T fetch_add(T* p, T v, memory_order m) {
    if constexpr (::std::is_integral_v<T>) {
      announce_scope<Scope>();
      return __atomic_fetch_add(p, v, order_of(m));
    } else {
      return update(p, [v](T x) { return static_cast<T>(x + v); }, m);
    }
  }
  SCANLAB_SIM_ATOMIC_INLINE static T fetch_sub(T* p, T v, memory_order m) {
    if constexpr (::std::is_integral_v<T>) {
      announce_scope<Scope>();
      return __atomic_fetch_sub(p, v, order_of(m));
    } else {
      return update(p, [v](T x) { return static_cast<T>(x - v); }, m);
    }
  }
  SCANLAB_SIM_ATOMIC_INLINE static T fetch_and(T* p, T v, memory_order m) {
    announce_scope<Scope>();
    return __atomic_fetch_and(p, v, order_of(m));
  }
  SCANLAB_SIM_ATOMIC_INLINE static T fetch_or(T* p, T v, memory_order m) {
    announce_scope<Scope>();
    return __atomic_fetch_or(p, v, order_of(m));
  }
  SCANLAB_SIM_ATOMIC_INLINE static T fetch_xor(T* p, T v, memory_order m) {
    announce_scope<Scope>();
    return __atomic_fetch_xor(p, v, order_of(m));
  }
  SCANLAB_SIM_ATOMIC_INLINE static T fetch_min(T* p, T v, memory_order m) { return update(p, [v](T x) { return v < x ? v : x; }, m); }
  SCANLAB_SIM_ATOMIC_INLINE static T fetch_max(T* p, T v, memory_order m) { return update(p, [v](T x) { return x < v ? v : x; }, m); }
};

// The interface of atomic and atomic_ref over `Derived::address()`.
template <class Derived, class T, thread_scope Scope>
class atomic_interface {
  using ops = operations<T, Scope>;
  T* at() const { return static_cast<const Derived*>(this)->address(); }

 public:
  using value_type = T;
  static constexpr bool is_always_lock_free = true;
  SCANLAB_SIM_ATOMIC_INLINE bool is_lock_free() const noexcept { return true; }

  SCANLAB_SIM_ATOMIC_INLINE T load(memory_order m = memory_order_seq_cst) const noexcept { return ops::load(at(), m); }
  SCANLAB_SIM_ATOMIC_INLINE void store(T v, memory_order m = memory_order_seq_cst) const noexcept { ops::store(at(), v, m); }
  operator T() const noexcept { return load(); }
  SCANLAB_SIM_ATOMIC_INLINE T exchange(T v, memory_order m = memory_order_seq_cst) const noexcept { return ops::exchange(at(), v, m); }
  SCANLAB_SIM_ATOMIC_INLINE bool compare_exchange_weak(T& expected, T desired, memory_order success, memory_order failure) const noexcept {
    return ops::compare_exchange(at(), expected, desired, true, success, failure);
  }
  SCANLAB_SIM_ATOMIC_INLINE bool compare_exchange_weak(T& expected, T desired, memory_order m = memory_order_seq_cst) const noexcept {
    return ops::compare_exchange(at(), expected, desired, true, m, m);
  }
  SCANLAB_SIM_ATOMIC_INLINE bool compare_exchange_strong(T& expected, T desired, memory_order success, memory_order failure) const noexcept {
    return ops::compare_exchange(at(), expected, desired, false, success, failure);
  }
  SCANLAB_SIM_ATOMIC_INLINE bool compare_exchange_strong(T& expected, T desired, memory_order m = memory_order_seq_cst) const noexcept {
    return ops::compare_exchange(at(), expected, desired, false, m, m);
  }
  SCANLAB_SIM_ATOMIC_INLINE T fetch_add(T v, memory_order m = memory_order_seq_cst) const noexcept { return ops::fetch_add(at(), v, m); }
  SCANLAB_SIM_ATOMIC_INLINE T fetch_sub(T v, memory_order m = memory_order_seq_cst) const noexcept { return ops::fetch_sub(at(), v, m); }
  SCANLAB_SIM_ATOMIC_INLINE T fetch_and(T v, memory_order m = memory_order_seq_cst) const noexcept { return ops::fetch_and(at(), v, m); }
  SCANLAB_SIM_ATOMIC_INLINE T fetch_or(T v, memory_order m = memory_order_seq_cst) const noexcept { return ops::fetch_or(at(), v, m); }
  SCANLAB_SIM_ATOMIC_INLINE T fetch_xor(T v, memory_order m = memory_order_seq_cst) const noexcept { return ops::fetch_xor(at(), v, m); }
  SCANLAB_SIM_ATOMIC_INLINE T fetch_min(T v, memory_order m = memory_order_seq_cst) const noexcept { return ops::fetch_min(at(), v, m); }
  SCANLAB_SIM_ATOMIC_INLINE T fetch_max(T v, memory_order m = memory_order_seq_cst) const noexcept { return ops::fetch_max(at(), v, m); }
  SCANLAB_SIM_ATOMIC_INLINE T operator++() const noexcept { return fetch_add(T(1)) + T(1); }
  SCANLAB_SIM_ATOMIC_INLINE T operator++(int) const noexcept { return fetch_add(T(1)); }
  SCANLAB_SIM_ATOMIC_INLINE T operator--() const noexcept { return fetch_sub(T(1)) - T(1); }
  SCANLAB_SIM_ATOMIC_INLINE T operator--(int) const noexcept { return fetch_sub(T(1)); }
  SCANLAB_SIM_ATOMIC_INLINE T operator+=(T v) const noexcept { return fetch_add(v) + v; }
  SCANLAB_SIM_ATOMIC_INLINE T operator-=(T v) const noexcept { return fetch_sub(v) - v; }
  SCANLAB_SIM_ATOMIC_INLINE T operator&=(T v) const noexcept { return fetch_and(v) & v; }
  SCANLAB_SIM_ATOMIC_INLINE T operator|=(T v) const noexcept { return fetch_or(v) | v; }
  SCANLAB_SIM_ATOMIC_INLINE T operator^=(T v) const noexcept { return fetch_xor(v) ^ v; }
};

}  // namespace detail

// Scope is an extension of cuda::atomic; cuda::std::atomic is of system scope.
template <class T, thread_scope Scope = thread_scope_system>
class atomic_ref : public detail::atomic_interface<atomic_ref<T, Scope>, T, Scope> {
 public:
  static constexpr ::std::size_t required_alignment = sizeof(T);
  explicit atomic_ref(T& object) noexcept : p_(&object) {}
  atomic_ref(const atomic_ref&) noexcept = default;
  atomic_ref& operator=(const atomic_ref&) = delete;
  T operator=(T v) const noexcept {
    this->store(v);
    return v;
  }
  SCANLAB_SIM_ATOMIC_INLINE T* address() const { return p_; }

 private:
  T* p_;
};

template <class T, thread_scope Scope = thread_scope_system>
class atomic : public detail::atomic_interface<atomic<T, Scope>, T, Scope> {
 public:
  atomic() noexcept = default;
  constexpr atomic(T v) noexcept : value_(v) {}
  atomic(const atomic&) = delete;
  atomic& operator=(const atomic&) = delete;
  T operator=(T v) noexcept {
    this->store(v);
    return v;
  }
  SCANLAB_SIM_ATOMIC_INLINE T* address() const { return const_cast<T*>(&value_); }

 private:
  alignas(sizeof(T)) T value_{};
};

inline void atomic_thread_fence(memory_order m) noexcept { scanlab::sim::thread_fence(detail::order_of(m), false); }
inline void atomic_signal_fence(memory_order m) noexcept { __atomic_signal_fence(detail::order_of(m)); }

}  // namespace std

using std::memory_order;
using std::memory_order_acq_rel;
using std::memory_order_acquire;
using std::memory_order_consume;
using std::memory_order_relaxed;
using std::memory_order_release;
using std::memory_order_seq_cst;
using std::thread_scope;
using std::thread_scope_block;
using std::thread_scope_device;
using std::thread_scope_system;
using std::thread_scope_thread;

template <class T, thread_scope Scope = thread_scope_system>
using atomic_ref = std::atomic_ref<T, Scope>;
template <class T, thread_scope Scope = thread_scope_system>
using atomic = std::atomic<T, Scope>;

inline void atomic_thread_fence(memory_order m, thread_scope scope = thread_scope_system) noexcept {
  scanlab::sim::thread_fence(std::detail::order_of(m), scope == thread_scope_block || scope == thread_scope_thread);
}

}  // namespace cuda
