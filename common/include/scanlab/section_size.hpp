// Section sizes of the block-level scans: one block of `section_size` threads scans one
// section of `section_size` consecutive elements.
#pragma once

#include <cstddef>

namespace scanlab {

// Smallest section: one warp. Largest: the CUDA limit on threads per block.
inline constexpr unsigned kMinSectionSize = 32;
inline constexpr unsigned kMaxSectionSize = 1024;

constexpr bool is_power_of_two(unsigned long long x) { return x != 0 && (x & (x - 1)) == 0; }

constexpr bool is_valid_section_size(unsigned section_size) {
    return is_power_of_two(section_size) && section_size >= kMinSectionSize &&
           section_size <= kMaxSectionSize;
}

// Exact for powers of two; rounds up otherwise. ceil_log2(1) == 0.
constexpr unsigned ceil_log2(unsigned long long x) {
    unsigned bits = 0;
    while ((1ULL << bits) < x) ++bits;
    return bits;
}

constexpr std::size_t ceil_div(std::size_t numerator, std::size_t denominator) {
    return (numerator + denominator - 1) / denominator;
}

}  // namespace scanlab
