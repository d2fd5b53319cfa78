// Predicates the warp- and block-level checks run with, and what each function must give.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "binary_scans_api.hpp"

namespace lab08 {

constexpr unsigned kWarp = 32;

struct Pattern {
    std::string name;
    std::vector<std::uint8_t> values;  // one per thread of the block
};

// Block sizes: one warp, a partial last warp, several warps, a large block with a partial
// last warp.
inline std::vector<unsigned> block_sizes() { return {32, 50, 96, 1000}; }

// The same 32-lane pattern in every warp: all zero, all one, one bit at each lane,
// alternating both ways; and seeded random bits.
inline std::vector<Pattern> patterns(unsigned threads) {
    std::vector<Pattern> all;
    auto per_lane = [&](const std::string& name, auto bit) {
        Pattern p{name, std::vector<std::uint8_t>(threads)};
        for (unsigned i = 0; i < threads; ++i) p.values[i] = bit(i % kWarp) ? 1 : 0;
        all.push_back(p);
    };
    per_lane("all zero", [](unsigned) { return false; });
    per_lane("all one", [](unsigned) { return true; });
    for (unsigned k = 0; k < kWarp; ++k) per_lane("only lane " + std::to_string(k), [k](unsigned l) { return l == k; });
    per_lane("even lanes", [](unsigned l) { return l % 2 == 0; });
    per_lane("odd lanes", [](unsigned l) { return l % 2 == 1; });
    std::mt19937 random(threads);
    for (int r = 0; r < 3; ++r) {
        Pattern p{"random " + std::to_string(r), std::vector<std::uint8_t>(threads)};
        for (auto& v : p.values) v = random() % 2;
        all.push_back(p);
    }
    return all;
}

// What the warp function of `probe` must return to thread i: the predicates of the lanes of
// i's warp that the probe counts (below, at or below, above, at or above, all).
inline std::vector<unsigned> expected_warp(Probe probe, const std::vector<std::uint8_t>& p) {
    const auto n = static_cast<unsigned>(p.size());
    std::vector<unsigned> out(n, 0);
    for (unsigned i = 0; i < n; ++i) {
        const unsigned warp_start = i - i % kWarp;
        for (unsigned j = warp_start; j < n && j < warp_start + kWarp; ++j) {
            const bool counted = probe == Probe::count || (probe == Probe::exclusive && j < i) ||
                                 (probe == Probe::inclusive && j <= i) || (probe == Probe::reverse_exclusive && j > i) ||
                                 (probe == Probe::reverse_inclusive && j >= i);
            if (counted) out[i] += p[j];
        }
    }
    return out;
}

inline ::testing::AssertionResult same(const std::vector<unsigned>& expected, const std::vector<unsigned>& actual) {
    for (std::size_t i = 0; i < expected.size(); ++i) {
        if (expected[i] != actual[i]) {
            return ::testing::AssertionFailure() << "thread " << i << " (warp " << i / kWarp << ", lane " << i % kWarp
                                                 << "): expected " << expected[i] << ", got " << actual[i];
        }
    }
    return ::testing::AssertionSuccess();
}

inline void expect_warp_probe(Probe probe) {
    for (const unsigned threads : block_sizes()) {
        for (const Pattern& pattern : patterns(threads)) {
            SCOPED_TRACE(std::to_string(threads) + " threads, predicates: " + pattern.name);
            EXPECT_TRUE(same(expected_warp(probe, pattern.values), run_probe(probe, pattern.values)));
        }
    }
}

}  // namespace lab08
