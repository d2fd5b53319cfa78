// Element-wise comparison of a lab's output with the reference, for every lab suite.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "fill_pattern.hpp"

namespace scanlab::grading {

inline constexpr std::size_t kMismatchesShown = 8;

// Floating-point values with every digit that distinguishes them, so that a value just past
// its bound never prints as equal to the expected one.
template <class T>
std::string show(const T& value) {
    if constexpr (std::is_floating_point_v<T>) {
        std::ostringstream text;
        text.precision(std::numeric_limits<T>::max_digits10);
        text << value;
        return text.str();
    } else {
        return ::testing::PrintToString(value);
    }
}

// Exact when `bounds` is empty; otherwise |actual[i] - expected[i]| <= bounds[i] (a NaN fails).
// The failure message lists the first mismatches with index, expected, actual and bound (or
// "never written" for an element that still holds the fill pattern), and how many there are
// in all.
template <class T>
::testing::AssertionResult matches_reference(const std::vector<T>& expected, const std::vector<T>& actual,
                                             const std::vector<T>& bounds = {}) {
    if (actual.size() != expected.size()) {
        return ::testing::AssertionFailure()
               << "output has " << actual.size() << " elements, expected " << expected.size();
    }
    const bool exact = bounds.empty();
    std::size_t mismatches = 0;
    std::size_t never_written = 0;
    auto failure = ::testing::AssertionFailure();
    for (std::size_t i = 0; i < expected.size(); ++i) {
        bool equal;
        if constexpr (std::is_floating_point_v<T>) {
            equal = exact ? actual[i] == expected[i] : std::fabs(actual[i] - expected[i]) <= bounds[i];
        } else {
            equal = actual[i] == expected[i];
        }
        if (equal) continue;
        const bool unwritten = holds_fill_pattern(actual[i]);
        never_written += unwritten;
        if (mismatches < kMismatchesShown && unwritten) {
            failure << "\n  output element " << i << " was never written (expected " << show(expected[i]) << ")";
        } else if (mismatches < kMismatchesShown) {
            failure << "\n  index " << i << ": expected " << show(expected[i]) << ", actual " << show(actual[i]);
            if (exact) {
                failure << " (exact)";
            } else {
                failure << ", bound " << show(bounds[i]);
            }
        }
        ++mismatches;
    }
    if (mismatches == 0) return ::testing::AssertionSuccess();
    failure << "\n  " << mismatches << " of " << expected.size() << " elements differ";
    if (never_written > 0) {
        std::ostringstream fill;
        fill << "0x" << std::hex << static_cast<unsigned>(kFillByte);
        failure << ", " << never_written << " of them never written (they still hold the fill pattern, "
                << fill.str() << " in every byte)";
    }
    return failure;
}

}  // namespace scanlab::grading
