// Lab 02's host entries, as the suite calls them, and what Kogge-Stone promises.
#pragma once

#include <cstddef>

#include "scanlab/section_size.hpp"
#include "section_scan_checks.hpp"

template <class T, class Op>
void kogge_stone_inplace_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op);
template <class T, class Op>
void kogge_stone_double_buffer_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op);

namespace lab02 {

inline constexpr auto kInPlace = [](auto... args) { kogge_stone_inplace_scan(args...); };
inline constexpr auto kDoubleBuffer = [](auto... args) { kogge_stone_double_buffer_scan(args...); };

// log2(S) steps; step `stride` updates the S - stride elements that have a partner, which
// sums to S*log2(S) - (S-1).
inline const scanlab::grading::SectionScanSpec kKoggeStone{
    scanlab::ScanKind::inclusive,
    [](unsigned s) { return scanlab::ceil_log2(s); },
    [](unsigned s) { return static_cast<unsigned long long>(s) * scanlab::ceil_log2(s) - (s - 1); },
};

}  // namespace lab02
