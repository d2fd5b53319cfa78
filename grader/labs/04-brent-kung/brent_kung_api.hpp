// Lab 04's host entries, as the suite calls them, and what Brent-Kung promises.
#pragma once

#include <cstddef>

#include "scanlab/section_size.hpp"
#include "section_scan_checks.hpp"

template <class T, class Op>
void brent_kung_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op);
template <class T, class Op>
void brent_kung_exclusive_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op);

namespace lab04 {

using namespace scanlab::grading;
using scanlab::ScanKind;

inline constexpr unsigned kElementsPerThread = 2;

inline constexpr auto kInclusive = [](auto in, auto out, std::size_t n, SectionShape shape, auto op) {
    brent_kung_scan(in, out, n, shape.section_size(), op);
};
inline constexpr auto kExclusive = [](auto in, auto out, std::size_t n, SectionShape shape, auto op) {
    brent_kung_exclusive_scan(in, out, n, shape.section_size(), op);
};

// A path from an input to an output climbs the reduction tree and comes down the
// distribution tree (or the down-sweep): at most 2*log2(S) applications.
inline unsigned tree_depth(SectionShape shape) { return 2 * scanlab::ceil_log2(shape.section_size()); }

// Reduction tree S - 1, distribution tree S - 1 - log2(S).
inline const SectionScanSpec kBrentKung{
    ScanKind::inclusive,
    shapes_with_elements_per_thread(kElementsPerThread),
    tree_depth,
    [](SectionShape shape) {
        const unsigned long long s = shape.section_size();
        return 2 * s - 2 - scanlab::ceil_log2(s);
    },
};

// Up-sweep S - 1, down-sweep S - 1 (the root's step combines the identity too).
inline const SectionScanSpec kBrentKungExclusive{
    ScanKind::exclusive,
    shapes_with_elements_per_thread(kElementsPerThread),
    tree_depth,
    [](SectionShape shape) { return 2 * (static_cast<unsigned long long>(shape.section_size()) - 1); },
};

}  // namespace lab04
