// How far a floating-point scan may be from the exact one.
//
// Any scan algorithm computes output i as a sum of x_j (j <= i, within its section) along
// some binary tree of additions; `depth` is the largest number of additions on a path from
// an input to an output (sequential: n - 1; Kogge-Stone on a section of S: log2(S); a
// hierarchical scan: the sum of its levels' depths). The classic bound for summation
// (Higham, "Accuracy and Stability of Numerical Algorithms", section 4.2) gives
//
//     |computed_i - exact_i| <= gamma(depth) * sum_{j <= i} |x_j|,
//     gamma(d) = d*u / (1 - d*u) <= d * eps           (u = eps/2 the unit roundoff, d*u <= 1/2)
//
// The grader compares against the reference rounded to T (one more rounding, at most
// u * |exact_i| <= eps * sum |x_j|) and computed in extended precision (error far below
// that), so it accepts
//
//     |actual_i - expected_i| <= kScanErrorSafety * (depth + 1) * eps * sum_{j <= i} |x_j|
//
// kScanErrorSafety = 2 keeps the bound valid where long double is no wider than double.
// Cancellation cannot fool it: the bound scales with the sum of magnitudes, not with the
// (possibly tiny) result.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <vector>

#include "scanlab/reference_scan.hpp"

namespace scanlab {

inline constexpr long double kScanErrorSafety = 2;

template <class T>
T scan_error_bound(unsigned depth, long double abs_prefix_sum) {
    static_assert(std::is_floating_point_v<T>, "error bounds apply to floating-point scans");
    const long double eps = std::numeric_limits<T>::epsilon();
    return static_cast<T>(kScanErrorSafety * (depth + 1) * eps * abs_prefix_sum);
}

// Bound for every output of a scan of `in` (sectioned like reference_scan.hpp). For an
// exclusive scan, output i covers the inputs before i only.
template <class T>
std::vector<T> scan_error_bounds(const T* in, std::size_t n, unsigned depth, ScanKind kind,
                                 std::size_t section_size = kWholeArray) {
    std::vector<T> bounds(n);
    long double abs_sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (i % section_size == 0) abs_sum = 0;
        if (kind == ScanKind::inclusive) abs_sum += std::fabs(static_cast<long double>(in[i]));
        bounds[i] = scan_error_bound<T>(depth, abs_sum);
        if (kind == ScanKind::exclusive) abs_sum += std::fabs(static_cast<long double>(in[i]));
    }
    return bounds;
}

}  // namespace scanlab
