#include "predicate_patterns.hpp"

namespace {

using namespace lab08;

std::vector<unsigned> block_sizes_with_full() { return {32, 50, 96, 1000, 1024}; }

TEST(Lab08BlockScans, Count) {
    for (const unsigned threads : block_sizes_with_full()) {
        for (const Pattern& pattern : patterns(threads)) {
            SCOPED_TRACE(std::to_string(threads) + " threads, predicates: " + pattern.name);
            unsigned total = 0;
            for (auto v : pattern.values) total += v;
            EXPECT_TRUE(same(std::vector<unsigned>(threads, total), run_probe(Probe::block_count, pattern.values)));
        }
    }
}

TEST(Lab08BlockScans, ExclusiveSum) {
    for (const unsigned threads : block_sizes_with_full()) {
        for (const Pattern& pattern : patterns(threads)) {
            SCOPED_TRACE(std::to_string(threads) + " threads, predicates: " + pattern.name);
            std::vector<unsigned> expected(threads, 0);
            for (unsigned i = 1; i < threads; ++i) expected[i] = expected[i - 1] + pattern.values[i - 1];
            EXPECT_TRUE(same(expected, run_probe(Probe::block_exclusive, pattern.values)));
        }
    }
}

}  // namespace
