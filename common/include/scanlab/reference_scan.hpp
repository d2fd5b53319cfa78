// CPU reference scans that the grader compares every lab against.
//
// Each function can scan the whole array or, with `section_size`, every run of
// `section_size` consecutive elements independently (what a single-block kernel produces
// before any carry propagation). The exclusive result starts every section with
// op.identity().
//
// For Plus on floating-point types the reference is computed in extended precision with
// compensated (Neumaier) summation and rounded once, so its own error is negligible next to
// the bound in error_bound.hpp; for every other (type, operator) pair it is the plain
// left-to-right fold, which is exact for integers and for the kit's other operators.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <vector>

#include "scanlab/operators.hpp"

namespace scanlab {

inline constexpr std::size_t kWholeArray = std::numeric_limits<std::size_t>::max();

enum class ScanKind { inclusive, exclusive };

namespace detail {

inline bool starts_section(std::size_t i, std::size_t section_size) {
    return i % section_size == 0;
}

// Neumaier's variant of Kahan summation: the rounding error of every addition is carried in
// `compensation`, so the prefix sum is accurate to about one rounding of `long double`.
class CompensatedSum {
public:
    void add(long double x) {
        const long double t = sum_ + x;
        if (std::fabs(sum_) >= std::fabs(x)) {
            compensation_ += (sum_ - t) + x;
        } else {
            compensation_ += (x - t) + sum_;
        }
        sum_ = t;
    }
    long double value() const { return sum_ + compensation_; }

private:
    long double sum_ = 0;
    long double compensation_ = 0;
};

}  // namespace detail

template <class T, class Op>
std::vector<T> reference_inclusive_scan(const T* in, std::size_t n, Op op,
                                        std::size_t section_size = kWholeArray) {
    std::vector<T> out(n);
    T running = op.identity();
    for (std::size_t i = 0; i < n; ++i) {
        running = detail::starts_section(i, section_size) ? in[i] : op(running, in[i]);
        out[i] = running;
    }
    return out;
}

// More specialised overload, chosen for Plus<float>, Plus<double>, ...
template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
std::vector<T> reference_inclusive_scan(const T* in, std::size_t n, Plus<T>,
                                        std::size_t section_size = kWholeArray) {
    std::vector<T> out(n);
    detail::CompensatedSum running;
    for (std::size_t i = 0; i < n; ++i) {
        if (detail::starts_section(i, section_size)) running = detail::CompensatedSum{};
        running.add(in[i]);
        out[i] = static_cast<T>(running.value());
    }
    return out;
}

template <class T, class Op>
std::vector<T> reference_exclusive_scan(const T* in, std::size_t n, Op op,
                                        std::size_t section_size = kWholeArray) {
    const std::vector<T> inclusive = reference_inclusive_scan(in, n, op, section_size);
    std::vector<T> out(n);
    for (std::size_t i = 0; i < n; ++i) {
        out[i] = detail::starts_section(i, section_size) ? op.identity() : inclusive[i - 1];
    }
    return out;
}

template <class T, class Op>
std::vector<T> reference_scan(ScanKind kind, const T* in, std::size_t n, Op op,
                              std::size_t section_size = kWholeArray) {
    return kind == ScanKind::inclusive ? reference_inclusive_scan(in, n, op, section_size)
                                       : reference_exclusive_scan(in, n, op, section_size);
}

}  // namespace scanlab
