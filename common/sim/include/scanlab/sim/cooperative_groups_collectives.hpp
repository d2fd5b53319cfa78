// cg::reduce, cg::inclusive_scan and cg::exclusive_scan over a tile or a coalesced group, and
// the operators of <cooperative_groups/reduce.h>. They are built from the group's own shuffles,
// so they are rendezvous of the group's lanes with the same checks, reported at the caller's line.
// Over a tile of several warps, each warp works on its own values, and the warps' results meet in
// rendezvous of the whole tile, one a warp.
#pragma once

#include <type_traits>

#include <scanlab/sim/cooperative_groups.hpp>

namespace cooperative_groups {
namespace detail {
template <class Group>
constexpr bool spans_warps = std::is_base_of_v<multi_warp_tile, Group>;

// The caller's warp, as a tile of 32 of a tile of several warps.
inline thread_block_tile<32> warp_of(const multi_warp_tile& tile) {
  return thread_block_tile<32>(static_cast<unsigned>(tile.thread_rank()), static_cast<unsigned>(tile.size()));
}

// The operator over the values of the tile's first `used` warps (at least one), each warp's value
// taken from its rank `rank_in_warp`. Every thread brings its own warp's value and takes part in
// the rendezvous of every warp of the tile, whatever `used` is.
template <class T, class Op>
T combine_warps(const multi_warp_tile& tile, const T& warp_value, unsigned rank_in_warp, unsigned used, Op op,
                const char* name, const char* file, unsigned line) {
  T result = tile.exchange(warp_value, rank_in_warp, name, file, line);
  for (unsigned w = 1; w < static_cast<unsigned>(tile.size()) / 32; ++w) {
    const T other = tile.exchange(warp_value, w * 32 + rank_in_warp, name, file, line);
    if (w < used) result = op(result, other);
  }
  return result;
}
}  // namespace detail

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
  if constexpr (detail::spans_warps<Group>) {
    const T in_warp = reduce(detail::warp_of(group), value, op, scanlab_file, scanlab_line);
    return detail::combine_warps(group, in_warp, 0, static_cast<unsigned>(group.size()) / 32, op,
                                 "cooperative_groups::reduce", scanlab_file, scanlab_line);
  } else {
    const auto size = static_cast<unsigned>(group.size());
    const auto rank = static_cast<unsigned>(group.thread_rank());
    for (unsigned offset = 1; offset < size; offset *= 2) {
      const T other = group.shfl_down(value, offset, scanlab_file, scanlab_line);
      if (rank % (2 * offset) == 0 && rank + offset < size) value = op(value, other);
    }
    return group.shfl(value, 0, scanlab_file, scanlab_line);
  }
}

// Kogge-Stone over the group's ranks; over a tile of several warps, each warp's scan after the
// totals of the warps before it (a warp's last rank holds its total).
template <class Group, class T, class Op>
T inclusive_scan(const Group& group, T value, Op op, SCANLAB_SIM_SITE_PARAMS) {
  if constexpr (detail::spans_warps<Group>) {
    const T in_warp = inclusive_scan(detail::warp_of(group), value, op, scanlab_file, scanlab_line);
    const auto warp = static_cast<unsigned>(group.thread_rank()) / 32;
    const T before = detail::combine_warps(group, in_warp, 31, warp, op, "cooperative_groups::inclusive_scan",
                                           scanlab_file, scanlab_line);
    return warp == 0 ? in_warp : op(before, in_warp);
  } else {
    const auto size = static_cast<unsigned>(group.size());
    const auto rank = static_cast<unsigned>(group.thread_rank());
    for (unsigned offset = 1; offset < size; offset *= 2) {
      const T before = group.shfl_up(value, offset, scanlab_file, scanlab_line);
      if (rank >= offset) value = op(before, value);
    }
    return value;
  }
}
template <class Group, class T>
T inclusive_scan(const Group& group, T value, SCANLAB_SIM_SITE_PARAMS) {
  return inclusive_scan(group, value, plus<T>(), scanlab_file, scanlab_line);
}

// Rank 0 gets a value-initialized T (CUDA leaves it unspecified for operators other than plus).
template <class Group, class T, class Op>
T exclusive_scan(const Group& group, T value, Op op, SCANLAB_SIM_SITE_PARAMS) {
  if constexpr (detail::spans_warps<Group>) {
    const auto warp_tile = detail::warp_of(group);
    const T in_warp = exclusive_scan(warp_tile, value, op, scanlab_file, scanlab_line);
    const T total = warp_tile.thread_rank() == 0 ? value : op(in_warp, value);  // at the warp's last rank
    const auto warp = static_cast<unsigned>(group.thread_rank()) / 32;
    const T before = detail::combine_warps(group, total, 31, warp, op, "cooperative_groups::exclusive_scan",
                                           scanlab_file, scanlab_line);
    if (warp == 0) return in_warp;
    return warp_tile.thread_rank() == 0 ? before : op(before, in_warp);
  } else {
    const T inclusive = inclusive_scan(group, value, op, scanlab_file, scanlab_line);
    const T before = group.shfl_up(inclusive, 1, scanlab_file, scanlab_line);
    return group.thread_rank() == 0 ? T() : before;
  }
}
template <class Group, class T>
T exclusive_scan(const Group& group, T value, SCANLAB_SIM_SITE_PARAMS) {
  return exclusive_scan(group, value, plus<T>(), scanlab_file, scanlab_line);
}

}  // namespace cooperative_groups
