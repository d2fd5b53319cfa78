// CUDA atomics and fences. In a kernel an atomic is an atomic access for the race detector, a
// relaxed read-modify-write for memory_order (of device scope; atomicAdd_block and friends of
// block scope, atomicAdd_system and friends of system scope), a spin-wait point, and (outside
// shared memory) an operation of the serial phase (scheduler::cross_block); in host code (the
// counting operator used by CPU scans) it is a real atomic operation, since host threads run in
// parallel.
#include <cstring>

#include "checks/memory_order.hpp"
#include "checks/race_detector.hpp"
#include "launch/launch_replay.hpp"
#include "memory/memory.hpp"
#include "scanlab/sim/atomic.hpp"
#include "threads/block.hpp"
#include "threads/scheduler.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail {
namespace {

// `flags`: kBlind for an atomic that only writes (atomicExch), so that it may be the first
// write of a location.
template <class T, class Update>
T atomic_update(T* p, Update update, std::uintptr_t pc, std::uint8_t flags = 0,
                memory_order::Scope scope = memory_order::Scope::device) {
  Thread* t = current_thread;
  if (!t) {
    T old;
    __atomic_load(p, &old, __ATOMIC_SEQ_CST);
    T desired = update(old);
    while (!__atomic_compare_exchange(p, &old, &desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
      desired = update(old);
    return old;
  }
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  // Other blocks see an atomic outside shared memory at once: it runs in the serial phase.
  if (!memory::block_private(address)) scheduler::cross_block(t, pc);
  // An atomic on a __device__ variable (host memory here, not checked for races) still hands
  // what a block published over to the blocks that read it, like one on global memory.
  memory_order::strong_access(t, address, true, true, memory_order::Order::relaxed, scope);
  if (memory::in_window(address)) {
    const std::uint8_t scoped = scope == memory_order::Scope::block ? race_detector::kBlockScope : 0;
    race_detector::check_access(t, address, sizeof(T), race_detector::kAtomic | race_detector::kWrite | flags | scoped, pc);
  } else {
    launch_replay::note_access_outside_device_memory(address);
  }
  const T old = *p;
  const T desired = update(old);
  if (std::memcmp(&old, &desired, sizeof(T)) != 0) {
    *p = desired;
    t->stored_since_yield = true;  // progress, for deadlock detection
  }
  scheduler::yield(t, pc);
  return old;
}

void fence(memory_order::Scope scope, memory_order::Order order = memory_order::Order::seq_cst) {
  Thread* t = current_thread;
  if (!t) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return;
  }
  memory_order::fence(t, order, scope);
}

}  // namespace
}  // namespace scanlab::sim::detail

#define SCANLAB_PC reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))
using scanlab::sim::detail::atomic_update;
using scanlab::sim::detail::race_detector::kBlind;
using scanlab::sim::detail::race_detector::kCompareAndSwap;

using scanlab::sim::detail::memory_order::Scope;

// Each atomic three times: of device scope (atomicAdd), block scope (atomicAdd_block) and
// system scope (atomicAdd_system).
#define SCANLAB_INTEGER_ATOMICS(T, S, scope)                                                                     \
  T atomicAdd##S(T* a, T v) { return atomic_update(a, [v](T x) { return static_cast<T>(x + v); }, SCANLAB_PC, 0, scope); } \
  T atomicSub##S(T* a, T v) { return atomic_update(a, [v](T x) { return static_cast<T>(x - v); }, SCANLAB_PC, 0, scope); } \
  T atomicExch##S(T* a, T v) { return atomic_update(a, [v](T) { return v; }, SCANLAB_PC, kBlind, scope); }                 \
  T atomicMax##S(T* a, T v) { return atomic_update(a, [v](T x) { return x < v ? v : x; }, SCANLAB_PC, 0, scope); }        \
  T atomicMin##S(T* a, T v) { return atomic_update(a, [v](T x) { return v < x ? v : x; }, SCANLAB_PC, 0, scope); }        \
  T atomicAnd##S(T* a, T v) { return atomic_update(a, [v](T x) { return static_cast<T>(x & v); }, SCANLAB_PC, 0, scope); } \
  T atomicOr##S(T* a, T v) { return atomic_update(a, [v](T x) { return static_cast<T>(x | v); }, SCANLAB_PC, 0, scope); }  \
  T atomicXor##S(T* a, T v) { return atomic_update(a, [v](T x) { return static_cast<T>(x ^ v); }, SCANLAB_PC, 0, scope); } \
  T atomicCAS##S(T* a, T compare, T v) {                                                                         \
    return atomic_update(a, [compare, v](T x) { return x == compare ? v : x; }, SCANLAB_PC, kCompareAndSwap, scope); \
  }
#define SCANLAB_ATOMICS_OF_SCOPE(S, scope)                                                                           \
  SCANLAB_INTEGER_ATOMICS(int, S, scope)                                                                             \
  SCANLAB_INTEGER_ATOMICS(unsigned int, S, scope)                                                                    \
  SCANLAB_INTEGER_ATOMICS(unsigned long long int, S, scope)                                                          \
  SCANLAB_INTEGER_ATOMICS(long long int, S, scope)                                                                   \
  float atomicAdd##S(float* a, float v) { return atomic_update(a, [v](float x) { return x + v; }, SCANLAB_PC, 0, scope); } \
  double atomicAdd##S(double* a, double v) {                                                                         \
    return atomic_update(a, [v](double x) { return x + v; }, SCANLAB_PC, 0, scope);                                  \
  }                                                                                                                  \
  float atomicExch##S(float* a, float v) { return atomic_update(a, [v](float) { return v; }, SCANLAB_PC, kBlind, scope); } \
  unsigned int atomicInc##S(unsigned int* a, unsigned int limit) {                                                   \
    return atomic_update(a, [limit](unsigned x) { return x >= limit ? 0u : x + 1; }, SCANLAB_PC, 0, scope);          \
  }                                                                                                                  \
  unsigned int atomicDec##S(unsigned int* a, unsigned int limit) {                                                   \
    return atomic_update(a, [limit](unsigned x) { return (x == 0 || x > limit) ? limit : x - 1; }, SCANLAB_PC, 0, scope); \
  }

SCANLAB_ATOMICS_OF_SCOPE(, Scope::device)
SCANLAB_ATOMICS_OF_SCOPE(_block, Scope::block)
SCANLAB_ATOMICS_OF_SCOPE(_system, Scope::system)

void __threadfence(const char*, unsigned) { scanlab::sim::detail::fence(Scope::device); }
void __threadfence_system(const char*, unsigned) { scanlab::sim::detail::fence(Scope::system); }
void __threadfence_block(const char*, unsigned) { scanlab::sim::detail::fence(Scope::block); }
// libcu++'s cuda::atomic_thread_fence (scanlab/sim/atomic.hpp).
void scanlab::sim::thread_fence(int order, bool block_scope) {
  namespace memory_order = scanlab::sim::detail::memory_order;
  scanlab::sim::detail::fence(block_scope ? Scope::block : Scope::system, memory_order::from_cpp(order));
}
void __nanosleep(unsigned) {
  if (auto* t = scanlab::sim::detail::current_thread) scanlab::sim::detail::scheduler::yield(t, SCANLAB_PC);
}
