#include "efficiency_checks.hpp"
#include "predicate_patterns.hpp"

namespace {

using namespace lab08;

// The warp-level binary prefix sum is one ballot and one population count per thread.
TEST(Lab08Efficiency, OneBallotOnePopcPerThread) {
    SCANLAB_REQUIRE_COUNTERS();
#ifdef SCANLAB_SIM
    const unsigned threads = 96;
    const std::vector<std::uint8_t> predicates = patterns(threads).back().values;
    std::vector<unsigned> got;
    const auto counted = scanlab::grading::count_while([&] { got = run_probe(Probe::exclusive, predicates); });
    EXPECT_TRUE(same(expected_warp(Probe::exclusive, predicates), got));
    const std::string measured = scanlab::grading::record_measurement(
        "per thread: " + std::to_string(static_cast<double>(counted.ballot_calls) / threads).substr(0, 4) + " ballots, " +
        std::to_string(static_cast<double>(counted.popc_calls) / threads).substr(0, 4) + " popcs, " +
        std::to_string(counted.shuffle_calls) + " shuffles in all");
    EXPECT_EQ(counted.ballot_calls, threads) << measured;
    EXPECT_EQ(counted.popc_calls, threads) << measured;
    EXPECT_EQ(counted.shuffle_calls, 0u) << measured;
#endif
}

}  // namespace
