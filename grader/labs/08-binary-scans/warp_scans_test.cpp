#include "predicate_patterns.hpp"

namespace {

using namespace lab08;

TEST(Lab08WarpScans, Count) { expect_warp_probe(Probe::count); }
TEST(Lab08WarpScans, Exclusive) { expect_warp_probe(Probe::exclusive); }
TEST(Lab08WarpScans, Inclusive) { expect_warp_probe(Probe::inclusive); }
TEST(Lab08WarpScans, ReverseExclusive) { expect_warp_probe(Probe::reverse_exclusive); }
TEST(Lab08WarpScans, ReverseInclusive) { expect_warp_probe(Probe::reverse_inclusive); }

// The shuffle scan the block-level sums use for the warps' totals.
TEST(Lab08WarpScans, ShuffleSum) {
    for (const unsigned threads : block_sizes()) {
        SCOPED_TRACE(std::to_string(threads) + " threads");
        std::vector<unsigned> values(threads);
        for (unsigned i = 0; i < threads; ++i) values[i] = i * 7 + 3;
        std::vector<unsigned> expected(threads);
        for (unsigned i = 0; i < threads; ++i) expected[i] = values[i] + (i % kWarp == 0 ? 0 : expected[i - 1]);
        EXPECT_TRUE(same(expected, run_warp_sum_probe(values)));
    }
}

}  // namespace
