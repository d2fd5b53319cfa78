// Lab 02's host entries, as the suite calls them, and what Kogge-Stone promises.
#pragma once

#include <cstddef>

#include "scanlab/section_size.hpp"
#include "section_scan_checks.hpp"

template <class T, class Op>
void kogge_stone_inplace_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op);
template <class T, class Op>
void kogge_stone_double_buffer_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op);

// The block scans as later labs call them (instantiations.cu): a kernel of the suite's loads one
// section of section_size elements, scans it with the block scan, and then each thread t reads
// element section_size - 1 - t of the result, which only a block scan that returns with the whole
// section visible to every thread allows without a race. The lab's own kernels store each
// thread's own element, which a missing last barrier does not disturb.
template <class T, class Op>
void block_scan_then_read_across(const T* d_in, T* d_out, unsigned section_size, bool double_buffer, Op op);

namespace lab02 {

using scanlab::grading::SectionShape;

inline constexpr auto kInPlace = [](auto in, auto out, std::size_t n, SectionShape shape, auto op) {
    kogge_stone_inplace_scan(in, out, n, shape.threads, op);
};
inline constexpr auto kDoubleBuffer = [](auto in, auto out, std::size_t n, SectionShape shape, auto op) {
    kogge_stone_double_buffer_scan(in, out, n, shape.threads, op);
};

// log2(S) steps; step `stride` updates the S - stride elements that have a partner, which
// sums to S*log2(S) - (S-1).
inline unsigned long long kogge_stone_applications(unsigned s) {
    return static_cast<unsigned long long>(s) * scanlab::ceil_log2(s) - (s - 1);
}

inline const scanlab::grading::SectionScanSpec kKoggeStone{
    scanlab::ScanKind::inclusive,
    scanlab::grading::shapes_with_elements_per_thread(1),
    [](SectionShape shape) { return scanlab::ceil_log2(shape.section_size()); },
    [](SectionShape shape) { return kogge_stone_applications(shape.section_size()); },
};

}  // namespace lab02
