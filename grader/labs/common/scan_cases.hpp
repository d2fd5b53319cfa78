// The (element type, operator) pairs every scan lab is graded with, and their inputs.
//
// Each case is a type for GoogleTest's typed tests:
//   T, Op           what the lab's entry is instantiated with (see scan_instantiations.hpp)
//   kExact          compare exactly, or within the rounding bound of scanlab/error_bound.hpp
//   make_input      deterministic pseudo-random input of n elements
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "scanlab/operators.hpp"

namespace scanlab::grading {

// Every test draws from a generator seeded with what identifies the run, so a failure is
// reproducible and different sizes see different data.
inline std::mt19937_64 make_generator(std::uint64_t a, std::uint64_t b = 0) {
    std::seed_seq seed{static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(a >> 32),
                       static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32)};
    return std::mt19937_64(seed);
}

template <class T, class Distribution>
std::vector<T> draw(std::size_t n, std::uint64_t seed, Distribution distribution) {
    auto generator = make_generator(n, seed);
    std::vector<T> values(n);
    for (T& value : values) value = static_cast<T>(distribution(generator));
    return values;
}

// Small magnitudes: no signed overflow even for the largest sizes the suites use.
struct Int32Plus {
    using T = int;
    using Op = Plus<int>;
    static constexpr bool kExact = true;
    static constexpr int kMagnitude = 1000;
    static std::vector<T> make_input(std::size_t n, std::uint64_t seed) {
        return draw<T>(n, seed, std::uniform_int_distribution<int>(-kMagnitude, kMagnitude));
    }
};

// Random reals of both signs: results carry rounding error, compared within the bound.
template <class Real>
struct RandomRealPlus {
    using T = Real;
    using Op = Plus<Real>;
    static constexpr bool kExact = false;
    static std::vector<T> make_input(std::size_t n, std::uint64_t seed) {
        return draw<T>(n, seed, std::uniform_real_distribution<Real>(-1, 1));
    }
};
using FloatPlus = RandomRealPlus<float>;
using DoublePlus = RandomRealPlus<double>;

// Integer-valued floats: every partial sum stays below 2^24, so every association order
// gives the exact result and a tolerance could only hide bugs.
struct IntegerValuedFloatPlus {
    using T = float;
    using Op = Plus<float>;
    static constexpr bool kExact = true;
    static constexpr int kMagnitude = 64;
    static std::vector<T> make_input(std::size_t n, std::uint64_t seed) {
        return draw<T>(n, seed, std::uniform_int_distribution<int>(-kMagnitude, kMagnitude));
    }
};

// Full range, negatives included: a zero where the identity (INT_MIN) belongs shows up.
struct Int32Max {
    using T = int;
    using Op = Max<int>;
    static constexpr bool kExact = true;
    static std::vector<T> make_input(std::size_t n, std::uint64_t seed) {
        return draw<T>(n, seed, std::uniform_int_distribution<int>(std::numeric_limits<int>::lowest(),
                                                                   std::numeric_limits<int>::max()));
    }
};

// Non-commutative: swapped operands give wrong answers. Wrap-around arithmetic: exact.
struct AffineCompose {
    using T = AffineMap<unsigned>;
    using Op = ComposeAffine<unsigned>;
    static constexpr bool kExact = true;
    static std::vector<T> make_input(std::size_t n, std::uint64_t seed) {
        auto generator = make_generator(n, seed);
        std::uniform_int_distribution<unsigned> coefficient;
        std::vector<T> values(n);
        for (T& f : values) f = T{coefficient(generator), coefficient(generator)};
        return values;
    }
};

using ScanCases = ::testing::Types<Int32Plus, FloatPlus, IntegerValuedFloatPlus, DoublePlus, Int32Max,
                                   AffineCompose>;

// Readable typed-test names ("Lab02Correctness/Int32Max.InPlace") for gtest filters and reports.
struct ScanCaseNames {
    template <class Case>
    static std::string GetName(int) {
        if constexpr (std::is_same_v<Case, Int32Plus>) return "Int32Plus";
        if constexpr (std::is_same_v<Case, FloatPlus>) return "FloatPlus";
        if constexpr (std::is_same_v<Case, IntegerValuedFloatPlus>) return "IntegerValuedFloatPlus";
        if constexpr (std::is_same_v<Case, DoublePlus>) return "DoublePlus";
        if constexpr (std::is_same_v<Case, Int32Max>) return "Int32Max";
        if constexpr (std::is_same_v<Case, AffineCompose>) return "AffineCompose";
        return "Unnamed";
    }
};

}  // namespace scanlab::grading
