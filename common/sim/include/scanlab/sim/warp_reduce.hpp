// The warp reductions of compute capability 8.0 (__reduce_add_sync, __reduce_min_sync,
// __reduce_max_sync on int and unsigned; __reduce_and_sync, __reduce_or_sync, __reduce_xor_sync
// on unsigned): every lane of the mask gets the operator over all of the mask's values. Built
// from the mask's own shuffles, one per lane of the mask, so a reduction is the same rendezvous
// as the warp intrinsics, with the same mask checks, reported at the caller's line.
#pragma once

#include <scanlab/sim/cuda/builtin_variables.hpp>
#include <scanlab/sim/cuda/warp.hpp>

namespace scanlab::sim::detail {
template <class T, class Op>
T warp_reduce(unsigned mask, T value, Op op, const char* file, unsigned line) {
  // Lane order is the GPU's too: the operators here are commutative and exact.
  T result{};
  bool first = true;
  for (unsigned lanes = mask; lanes != 0; lanes &= lanes - 1) {
    const T other = __shfl_sync(mask, value, __builtin_ctz(lanes), warpSize, file, line);
    result = first ? other : op(result, other);
    first = false;
  }
  return result;
}
}  // namespace scanlab::sim::detail

#define SCANLAB_SIM_WARP_REDUCE(NAME, T, EXPRESSION)                                                      \
  inline T NAME(unsigned mask, T value, SCANLAB_SIM_SITE_PARAMS) {                                       \
    return scanlab::sim::detail::warp_reduce(mask, value, [](T a, T b) { return EXPRESSION; }, scanlab_file, \
                                             scanlab_line);                                                \
  }
SCANLAB_SIM_WARP_REDUCE(__reduce_add_sync, int, static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b)))
SCANLAB_SIM_WARP_REDUCE(__reduce_add_sync, unsigned, a + b)
SCANLAB_SIM_WARP_REDUCE(__reduce_min_sync, int, b < a ? b : a)
SCANLAB_SIM_WARP_REDUCE(__reduce_min_sync, unsigned, b < a ? b : a)
SCANLAB_SIM_WARP_REDUCE(__reduce_max_sync, int, a < b ? b : a)
SCANLAB_SIM_WARP_REDUCE(__reduce_max_sync, unsigned, a < b ? b : a)
SCANLAB_SIM_WARP_REDUCE(__reduce_and_sync, unsigned, a & b)
SCANLAB_SIM_WARP_REDUCE(__reduce_or_sync, unsigned, a | b)
SCANLAB_SIM_WARP_REDUCE(__reduce_xor_sync, unsigned, a ^ b)
#undef SCANLAB_SIM_WARP_REDUCE
