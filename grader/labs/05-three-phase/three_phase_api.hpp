// Lab 05's host entry, as the suite calls it, and what the three-phase scan promises.
#pragma once

#include <cstddef>

#include "scanlab/section_size.hpp"
#include "section_scan_checks.hpp"

template <class T, class Op>
void three_phase_scan(const T* d_in, T* d_out, std::size_t n, unsigned threads_per_block,
                      unsigned elements_per_thread, Op op);

namespace lab05 {

using namespace scanlab::grading;
using scanlab::ScanKind;

inline constexpr auto kThreePhase = [](auto in, auto out, std::size_t n, SectionShape shape, auto op) {
    three_phase_scan(in, out, n, shape.threads, shape.elements_per_thread, op);
};

// One warp with a sub-section length that is not a power of two, a common block, the
// largest block; the largest section (4096 eight-byte elements and 1024 totals) fits in
// 48 KiB of shared memory.
inline std::vector<SectionShape> shapes() { return {{32, 3}, {256, 4}, {1024, 4}}; }

inline unsigned long long kogge_stone_applications(unsigned long long t) {
    return t * scanlab::ceil_log2(t) - (t - 1);
}

// Phase 1: C - 1 per thread; phase 2: Kogge-Stone on T totals; phase 3: C per thread but
// the first.
inline unsigned long long three_phase_applications(SectionShape shape) {
    const unsigned long long t = shape.threads;
    const unsigned long long c = shape.elements_per_thread;
    return t * (c - 1) + kogge_stone_applications(t) + (t - 1) * c;
}

// Longest path: C - 1 in phase 1, log2(T) in phase 2, 1 in phase 3.
inline const SectionScanSpec kThreePhaseSpec{
    ScanKind::inclusive,
    shapes(),
    [](SectionShape shape) { return shape.elements_per_thread + scanlab::ceil_log2(shape.threads); },
    three_phase_applications,
};

}  // namespace lab05
