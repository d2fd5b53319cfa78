// Atomic functions of every scope and the memory fences: the operations by which the memory
// model orders a hand-off between threads; beside them __nanosleep, a spin-wait's back-off.
#pragma once

#include <scanlab/sim/cuda/call_site.hpp>

void __threadfence(SCANLAB_SIM_SITE_PARAMS);
void __threadfence_block(SCANLAB_SIM_SITE_PARAMS);
void __threadfence_system(SCANLAB_SIM_SITE_PARAMS);
void __nanosleep(unsigned ns);

// Out of line on purpose: the simulator's own code is not instrumented, and the return address
// names the student's line in reports.
// Each of device scope (atomicAdd), block scope (atomicAdd_block) and system scope (atomicAdd_system).
#define SCANLAB_SIM_DECLARE_ATOMIC(name, T) T name(T* address, T value);
#define SCANLAB_SIM_DECLARE_INTEGER_ATOMICS(T, S) \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicAdd##S, T)     \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicSub##S, T)     \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicExch##S, T)    \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicMax##S, T)     \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicMin##S, T)     \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicAnd##S, T)     \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicOr##S, T)      \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicXor##S, T)     \
  T atomicCAS##S(T* address, T compare, T value);
#define SCANLAB_SIM_DECLARE_ATOMICS_OF_SCOPE(S)                             \
  SCANLAB_SIM_DECLARE_INTEGER_ATOMICS(int, S)                              \
  SCANLAB_SIM_DECLARE_INTEGER_ATOMICS(unsigned int, S)                     \
  SCANLAB_SIM_DECLARE_INTEGER_ATOMICS(unsigned long long int, S)           \
  SCANLAB_SIM_DECLARE_INTEGER_ATOMICS(long long int, S)                    \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicAdd##S, float)                          \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicAdd##S, double)                         \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicExch##S, float)                         \
  unsigned int atomicInc##S(unsigned int* address, unsigned int limit);    \
  unsigned int atomicDec##S(unsigned int* address, unsigned int limit);
SCANLAB_SIM_DECLARE_ATOMICS_OF_SCOPE()
SCANLAB_SIM_DECLARE_ATOMICS_OF_SCOPE(_block)
SCANLAB_SIM_DECLARE_ATOMICS_OF_SCOPE(_system)
#undef SCANLAB_SIM_DECLARE_ATOMICS_OF_SCOPE
#undef SCANLAB_SIM_DECLARE_INTEGER_ATOMICS
#undef SCANLAB_SIM_DECLARE_ATOMIC
