// CUDA atomics and fences. In a kernel an atomic is an atomic access for the race detector, an
// acquire and release point between blocks, a spin-wait point, and (outside shared memory) an
// operation of the serial phase (scheduler::cross_block); in host code (the counting
// operator used by CPU scans) it is a real atomic operation, since host threads run in parallel.
#include <cstring>

#include "block.hpp"
#include "memory.hpp"
#include "race_detector.hpp"
#include "scheduler.hpp"
#include "thread.hpp"

namespace scanlab::sim::detail {
namespace {

// `flags`: kBlind for an atomic that only writes (atomicExch), so that it may be the first
// write of a location.
template <class T, class Update>
T atomic_update(T* p, Update update, std::uintptr_t pc, std::uint8_t flags = 0) {
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
  const bool device = memory::in_window(address);
  if (device) {
    race_detector::check_access(t, address, sizeof(T), race_detector::kAtomic | race_detector::kWrite | flags, pc);
  }
  // An atomic on a __device__ variable (host memory here, not checked for races) still hands
  // what a block published over to the blocks that read it, like one on global memory.
  race_detector::acquire(t, address);
  const T old = *p;
  const T desired = update(old);
  if (std::memcmp(&old, &desired, sizeof(T)) != 0) {
    *p = desired;
    t->stored_since_yield = true;  // progress, for deadlock detection
  }
  race_detector::release(t, address);
  scheduler::yield(t, pc);
  return old;
}

void fence(bool device_scope) {
  Thread* t = current_thread;
  if (!t) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return;
  }
  if (device_scope) race_detector::publish(*t->block);
}

}  // namespace
}  // namespace scanlab::sim::detail

#define SCANLAB_PC reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))
using scanlab::sim::detail::atomic_update;
using scanlab::sim::detail::race_detector::kBlind;

#define SCANLAB_INTEGER_ATOMICS(T)                                                                          \
  T atomicAdd(T* a, T v) { return atomic_update(a, [v](T x) { return static_cast<T>(x + v); }, SCANLAB_PC); } \
  T atomicSub(T* a, T v) { return atomic_update(a, [v](T x) { return static_cast<T>(x - v); }, SCANLAB_PC); } \
  T atomicExch(T* a, T v) { return atomic_update(a, [v](T) { return v; }, SCANLAB_PC, kBlind); }             \
  T atomicMax(T* a, T v) { return atomic_update(a, [v](T x) { return x < v ? v : x; }, SCANLAB_PC); }        \
  T atomicMin(T* a, T v) { return atomic_update(a, [v](T x) { return v < x ? v : x; }, SCANLAB_PC); }        \
  T atomicAnd(T* a, T v) { return atomic_update(a, [v](T x) { return static_cast<T>(x & v); }, SCANLAB_PC); } \
  T atomicOr(T* a, T v) { return atomic_update(a, [v](T x) { return static_cast<T>(x | v); }, SCANLAB_PC); }  \
  T atomicXor(T* a, T v) { return atomic_update(a, [v](T x) { return static_cast<T>(x ^ v); }, SCANLAB_PC); } \
  T atomicCAS(T* a, T compare, T v) {                                                                       \
    return atomic_update(a, [compare, v](T x) { return x == compare ? v : x; }, SCANLAB_PC);                 \
  }

SCANLAB_INTEGER_ATOMICS(int)
SCANLAB_INTEGER_ATOMICS(unsigned int)
SCANLAB_INTEGER_ATOMICS(unsigned long long int)
SCANLAB_INTEGER_ATOMICS(long long int)

float atomicAdd(float* a, float v) { return atomic_update(a, [v](float x) { return x + v; }, SCANLAB_PC); }
double atomicAdd(double* a, double v) { return atomic_update(a, [v](double x) { return x + v; }, SCANLAB_PC); }
float atomicExch(float* a, float v) { return atomic_update(a, [v](float) { return v; }, SCANLAB_PC, kBlind); }
unsigned int atomicInc(unsigned int* a, unsigned int limit) {
  return atomic_update(a, [limit](unsigned x) { return x >= limit ? 0u : x + 1; }, SCANLAB_PC);
}
unsigned int atomicDec(unsigned int* a, unsigned int limit) {
  return atomic_update(a, [limit](unsigned x) { return (x == 0 || x > limit) ? limit : x - 1; }, SCANLAB_PC);
}

void __threadfence(const char*, unsigned) { scanlab::sim::detail::fence(true); }
void __threadfence_system(const char*, unsigned) { scanlab::sim::detail::fence(true); }
void __threadfence_block(const char*, unsigned) { scanlab::sim::detail::fence(false); }
void __nanosleep(unsigned) {
  if (auto* t = scanlab::sim::detail::current_thread) scanlab::sim::detail::scheduler::yield(t, SCANLAB_PC);
}
