// CUDA atomics and fences. In a kernel an atomic is a relaxed atomic read-modify-write (of device
// scope; atomicAdd_block and friends of block scope, atomicAdd_system and friends of system scope)
// that takes the path of every access (entry/access.hpp), then a spin-wait point; in host code
// (the counting operator used by CPU scans) it is a real atomic operation, since host threads run
// in parallel.
#include <cstring>

#include "base/access.hpp"
#include "checks/memory_order.hpp"
#include "entry/access.hpp"
#include "scanlab/sim/atomic.hpp"
#include "threads/scheduler.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail {
namespace {

// `blind`: an atomic that only writes (atomicExch), so that it may be the first write of a
// location; `compare_and_swap`: atomicCAS, which checks the guess its thread read before.
template <class T, class Update>
T atomic_update(T* p, Update update, std::uintptr_t pc, bool blind, bool compare_and_swap, Scope scope) {
  Thread* t = current_thread;
  if (!t) {
    T old;
    __atomic_load(p, &old, __ATOMIC_SEQ_CST);
    T desired = update(old);
    while (!__atomic_compare_exchange(p, &old, &desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
      desired = update(old);
    return old;
  }
  Access a;
  a.address = reinterpret_cast<std::uintptr_t>(p);
  a.bytes = sizeof(T);
  a.kind = Access::Kind::read_modify_write;
  a.strength = Access::Strength::atomic;
  a.scope = scope;
  a.blind = blind;
  a.compare_and_swap = compare_and_swap;
  a.pc = pc;
  access_path::run(t, a);
  const T old = *p;
  const T desired = update(old);
  if (std::memcmp(&old, &desired, sizeof(T)) != 0) {
    *p = desired;
    t->stored_since_yield = true;  // progress, for deadlock detection
  }
  scheduler::yield(t, pc);
  return old;
}

void fence(Scope scope, Order order = Order::seq_cst) {
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
using scanlab::sim::detail::Scope;
constexpr bool kBlind = true;
constexpr bool kCompareAndSwap = true;

// Each atomic three times: of device scope (atomicAdd), block scope (atomicAdd_block) and
// system scope (atomicAdd_system).
#define SCANLAB_INTEGER_ATOMICS(T, S, scope)                                                                     \
  T atomicAdd##S(T* a, T v) { return atomic_update(a, [v](T x) { return static_cast<T>(x + v); }, SCANLAB_PC, false, false, scope); } \
  T atomicSub##S(T* a, T v) { return atomic_update(a, [v](T x) { return static_cast<T>(x - v); }, SCANLAB_PC, false, false, scope); } \
  T atomicExch##S(T* a, T v) { return atomic_update(a, [v](T) { return v; }, SCANLAB_PC, kBlind, false, scope); }                 \
  T atomicMax##S(T* a, T v) { return atomic_update(a, [v](T x) { return x < v ? v : x; }, SCANLAB_PC, false, false, scope); }        \
  T atomicMin##S(T* a, T v) { return atomic_update(a, [v](T x) { return v < x ? v : x; }, SCANLAB_PC, false, false, scope); }        \
  T atomicAnd##S(T* a, T v) { return atomic_update(a, [v](T x) { return static_cast<T>(x & v); }, SCANLAB_PC, false, false, scope); } \
  T atomicOr##S(T* a, T v) { return atomic_update(a, [v](T x) { return static_cast<T>(x | v); }, SCANLAB_PC, false, false, scope); }  \
  T atomicXor##S(T* a, T v) { return atomic_update(a, [v](T x) { return static_cast<T>(x ^ v); }, SCANLAB_PC, false, false, scope); } \
  T atomicCAS##S(T* a, T compare, T v) {                                                                         \
    return atomic_update(a, [compare, v](T x) { return x == compare ? v : x; }, SCANLAB_PC, false, kCompareAndSwap, scope); \
  }
#define SCANLAB_ATOMICS_OF_SCOPE(S, scope)                                                                           \
  SCANLAB_INTEGER_ATOMICS(int, S, scope)                                                                             \
  SCANLAB_INTEGER_ATOMICS(unsigned int, S, scope)                                                                    \
  SCANLAB_INTEGER_ATOMICS(unsigned long long int, S, scope)                                                          \
  SCANLAB_INTEGER_ATOMICS(long long int, S, scope)                                                                   \
  float atomicAdd##S(float* a, float v) { return atomic_update(a, [v](float x) { return x + v; }, SCANLAB_PC, false, false, scope); } \
  double atomicAdd##S(double* a, double v) {                                                                         \
    return atomic_update(a, [v](double x) { return x + v; }, SCANLAB_PC, false, false, scope);                                  \
  }                                                                                                                  \
  float atomicExch##S(float* a, float v) { return atomic_update(a, [v](float) { return v; }, SCANLAB_PC, kBlind, false, scope); } \
  unsigned int atomicInc##S(unsigned int* a, unsigned int limit) {                                                   \
    return atomic_update(a, [limit](unsigned x) { return x >= limit ? 0u : x + 1; }, SCANLAB_PC, false, false, scope);          \
  }                                                                                                                  \
  unsigned int atomicDec##S(unsigned int* a, unsigned int limit) {                                                   \
    return atomic_update(a, [limit](unsigned x) { return (x == 0 || x > limit) ? limit : x - 1; }, SCANLAB_PC, false, false, scope); \
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
