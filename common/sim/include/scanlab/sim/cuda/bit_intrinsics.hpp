// Intrinsics on the bits of a value: population count, leading zeros, first set bit, bit reversal
// (__popc and __clz counted when the counters are on), and reinterpretation as another type.
#pragma once

#include <cstring>

namespace scanlab::sim::detail {
namespace counters {
extern bool enabled;  // scanlab/sim/counters.hpp: counting is on
}
enum class CountedIntrinsic { ballot, popc, clz, shuffle };
void count_intrinsic(CountedIntrinsic which);  // runtime/checks/counters.cpp
}  // namespace scanlab::sim::detail

inline int __popc(unsigned x) {
  if (scanlab::sim::detail::counters::enabled) {
    scanlab::sim::detail::count_intrinsic(scanlab::sim::detail::CountedIntrinsic::popc);
  }
  return __builtin_popcount(x);
}
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) {
  if (scanlab::sim::detail::counters::enabled) {
    scanlab::sim::detail::count_intrinsic(scanlab::sim::detail::CountedIntrinsic::clz);
  }
  return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x));
}
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  return (x >> 16) | (x << 16);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) |
         __brev(static_cast<unsigned>(x >> 32));
}

// Reinterpretation intrinsics: the same bits as another type (the CAS loops of atomics on floats
// use them).
#define SCANLAB_SIM_REINTERPRET(NAME, FROM, TO)                    \
  inline TO NAME(FROM x) {                                         \
    static_assert(sizeof(FROM) == sizeof(TO), "same size");        \
    TO y;                                                          \
    std::memcpy(&y, &x, sizeof y);                                 \
    return y;                                                      \
  }
SCANLAB_SIM_REINTERPRET(__float_as_int, float, int)
SCANLAB_SIM_REINTERPRET(__int_as_float, int, float)
SCANLAB_SIM_REINTERPRET(__float_as_uint, float, unsigned)
SCANLAB_SIM_REINTERPRET(__uint_as_float, unsigned, float)
SCANLAB_SIM_REINTERPRET(__double_as_longlong, double, long long)
SCANLAB_SIM_REINTERPRET(__longlong_as_double, long long, double)
#undef SCANLAB_SIM_REINTERPRET
