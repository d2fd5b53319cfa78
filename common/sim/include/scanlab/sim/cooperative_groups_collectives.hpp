// cg::reduce, cg::inclusive_scan and cg::exclusive_scan over a tile or a coalesced group, and
// the operators of <cooperative_groups/reduce.h>. They are built from the group's own shuffles,
// so they are rendezvous of the group's lanes with the same checks, reported at the caller's line.
#pragma once

#include <scanlab/sim/cooperative_groups.hpp>

namespace cooperative_groups {

template <class T>
struct plus {
  T operator()(const T& a, const T& b) const { return a + b; }
};
template <class T>
struct less {  // the smaller of the two: reduce(g, x, less<T>()) is a minimum
  T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T>
struct greater {  // the larger of the two
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  T operator()(const T& a, const T& b) const { return a & b; }
};
template <class T>
struct bit_or {
  T operator()(const T& a, const T& b) const { return a | b; }
};
template <class T>
struct bit_xor {
  T operator()(const T& a, const T& b) const { return a ^ b; }
};

// Every member gets op applied over all members' values in rank order: a tree towards rank 0,
// then a broadcast, which needs no power-of-two size (coalesced groups have any size).
template <class Group, class T, class Op>
T reduce(const Group& group, T value, Op op, SCANLAB_SIM_SITE_PARAMS) {
  const auto size = static_cast<unsigned>(group.size());
  const auto rank = static_cast<unsigned>(group.thread_rank());
  for (unsigned offset = 1; offset < size; offset *= 2) {
    const T other = group.shfl_down(value, offset, scanlab_file, scanlab_line);
    if (rank % (2 * offset) == 0 && rank + offset < size) value = op(value, other);
  }
  return group.shfl(value, 0, scanlab_file, scanlab_line);
}

// Kogge-Stone over the group's ranks.
template <class Group, class T, class Op>
T inclusive_scan(const Group& group, T value, Op op, SCANLAB_SIM_SITE_PARAMS) {
  const auto size = static_cast<unsigned>(group.size());
  const auto rank = static_cast<unsigned>(group.thread_rank());
  for (unsigned offset = 1; offset < size; offset *= 2) {
    const T before = group.shfl_up(value, offset, scanlab_file, scanlab_line);
    if (rank >= offset) value = op(before, value);
  }
  return value;
}
template <class Group, class T>
T inclusive_scan(const Group& group, T value, SCANLAB_SIM_SITE_PARAMS) {
  return inclusive_scan(group, value, plus<T>(), scanlab_file, scanlab_line);
}

// Rank 0 gets a value-initialized T (CUDA leaves it unspecified for operators other than plus).
template <class Group, class T, class Op>
T exclusive_scan(const Group& group, T value, Op op, SCANLAB_SIM_SITE_PARAMS) {
  const T inclusive = inclusive_scan(group, value, op, scanlab_file, scanlab_line);
  const T before = group.shfl_up(inclusive, 1, scanlab_file, scanlab_line);
  return group.thread_rank() == 0 ? T() : before;
}
template <class Group, class T>
T exclusive_scan(const Group& group, T value, SCANLAB_SIM_SITE_PARAMS) {
  return exclusive_scan(group, value, plus<T>(), scanlab_file, scanlab_line);
}

}  // namespace cooperative_groups
