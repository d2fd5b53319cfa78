// Lab 06's host entry, as the suite calls it, and the sizes it is graded at.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "operation_counter.hpp"
#include "scan_cases.hpp"
#include "scan_run.hpp"
#include "scanlab/section_size.hpp"
#include "sim_reports.hpp"

template <class T, class Op>
void hierarchical_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op);

namespace lab06 {

using namespace scanlab::grading;
using scanlab::ScanKind;

// A size of the whole array and the section size it is scanned with. Small sections reach
// three levels with small arrays.
struct Size {
    std::size_t n;
    unsigned section_size;
};

inline unsigned levels(Size s) {
    unsigned count = 1;
    for (std::size_t m = s.n; m > s.section_size; m = scanlab::ceil_div(m, s.section_size)) ++count;
    return count;
}

inline std::string describe(Size s) {
    return "n = " + std::to_string(s.n) + ", section_size = " + std::to_string(s.section_size) + " (" +
           std::to_string(levels(s)) + " level" + (levels(s) == 1 ? "" : "s") + ")";
}

// 1, 2 and 3 levels, around the sizes where a level is added.
inline std::vector<Size> sizes() {
    return {{0, 64},        {1, 64},    {63, 64},    {64, 64},      {65, 64},      {4095, 64},
            {4096, 64},     {4097, 64}, {70001, 64}, {16385, 128},  {2049, 2048},  {10247, 2048}};
}

// Each level adds a section scan (Brent-Kung: at most 2*log2(S) applications on a path) and
// one application coming down.
inline unsigned depth(Size s) { return levels(s) * (2 * scanlab::ceil_log2(s.section_size) + 1); }

}  // namespace lab06
