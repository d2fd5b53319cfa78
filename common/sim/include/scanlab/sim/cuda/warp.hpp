// Warp intrinsics: votes, matches and shuffles, each a rendezvous of the lanes its mask names; and
// the mask-less forms of before CUDA 9, refused at the program's line.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <scanlab/sim/cuda/builtin_variables.hpp>
#include <scanlab/sim/cuda/call_site.hpp>

unsigned __ballot_sync(unsigned mask, int predicate, SCANLAB_SIM_SITE_PARAMS);
int __any_sync(unsigned mask, int predicate, SCANLAB_SIM_SITE_PARAMS);
int __all_sync(unsigned mask, int predicate, SCANLAB_SIM_SITE_PARAMS);
unsigned __activemask();
unsigned __match_any_sync(unsigned mask, unsigned long long value, SCANLAB_SIM_SITE_PARAMS);
unsigned __match_all_sync(unsigned mask, unsigned long long value, int* predicate, SCANLAB_SIM_SITE_PARAMS);
// Floating-point values match by their bits, as on a GPU.
inline unsigned __match_any_sync(unsigned mask, float value, SCANLAB_SIM_SITE_PARAMS) {
  return __match_any_sync(mask, static_cast<unsigned long long>(__builtin_bit_cast(unsigned, value)), scanlab_file, scanlab_line);
}
inline unsigned __match_any_sync(unsigned mask, double value, SCANLAB_SIM_SITE_PARAMS) {
  return __match_any_sync(mask, __builtin_bit_cast(unsigned long long, value), scanlab_file, scanlab_line);
}

namespace scanlab::sim::detail {
enum class ShuffleKind { index, up, down, bitwise_xor };
std::uint64_t warp_shuffle(ShuffleKind kind, unsigned mask, std::uint64_t value, int lane_or_delta, int width,
                           const char* file, unsigned line);
template <class T>
T shuffle(ShuffleKind kind, unsigned mask, T value, int lane_or_delta, int width, const char* file, unsigned line) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8, "warp shuffles move values of at most 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  bits = warp_shuffle(kind, mask, bits, lane_or_delta, width, file, line);
  T result;
  std::memcpy(&result, &bits, sizeof(T));
  return result;
}
}  // namespace scanlab::sim::detail

template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize, SCANLAB_SIM_SITE_PARAMS) {
  using namespace scanlab::sim::detail;
  return shuffle(ShuffleKind::index, mask, var, src_lane, width, scanlab_file, scanlab_line);
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize, SCANLAB_SIM_SITE_PARAMS) {
  using namespace scanlab::sim::detail;
  return shuffle(ShuffleKind::up, mask, var, static_cast<int>(delta), width, scanlab_file, scanlab_line);
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize, SCANLAB_SIM_SITE_PARAMS) {
  using namespace scanlab::sim::detail;
  return shuffle(ShuffleKind::down, mask, var, static_cast<int>(delta), width, scanlab_file, scanlab_line);
}
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize, SCANLAB_SIM_SITE_PARAMS) {
  using namespace scanlab::sim::detail;
  return shuffle(ShuffleKind::bitwise_xor, mask, var, lane_mask, width, scanlab_file, scanlab_line);
}

// The mask-less forms were removed in CUDA 9 (Volta's independent thread scheduling): they
// assumed lockstep warps. Reject them where they are used, with the replacement named.
namespace scanlab::sim::detail {
template <class... A>
constexpr bool always_false = false;
}
template <class... A>
unsigned __ballot(A...) {
  static_assert(scanlab::sim::detail::always_false<A...>, "__ballot(pred) was removed in CUDA 9: use __ballot_sync(mask, pred)");
  return 0;
}
template <class... A>
int __any(A...) {
  static_assert(scanlab::sim::detail::always_false<A...>, "__any(pred) was removed in CUDA 9: use __any_sync(mask, pred)");
  return 0;
}
template <class... A>
int __all(A...) {
  static_assert(scanlab::sim::detail::always_false<A...>, "__all(pred) was removed in CUDA 9: use __all_sync(mask, pred)");
  return 0;
}
template <class T, class... A>
T __shfl(T, A...) {
  static_assert(scanlab::sim::detail::always_false<T, A...>, "__shfl was removed in CUDA 9: use __shfl_sync(mask, ...)");
  return T{};
}
template <class T, class... A>
T __shfl_up(T, A...) {
  static_assert(scanlab::sim::detail::always_false<T, A...>, "__shfl_up was removed in CUDA 9: use __shfl_up_sync(mask, ...)");
  return T{};
}
template <class T, class... A>
T __shfl_down(T, A...) {
  static_assert(scanlab::sim::detail::always_false<T, A...>, "__shfl_down was removed in CUDA 9: use __shfl_down_sync(mask, ...)");
  return T{};
}
template <class T, class... A>
T __shfl_xor(T, A...) {
  static_assert(scanlab::sim::detail::always_false<T, A...>, "__shfl_xor was removed in CUDA 9: use __shfl_xor_sync(mask, ...)");
  return T{};
}
