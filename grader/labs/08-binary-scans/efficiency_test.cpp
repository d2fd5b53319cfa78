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
    scanlab::grading::record_measurement(
        "per thread: " + std::to_string(static_cast<double>(counted.ballot_calls) / threads).substr(0, 4) + " ballots, " +
        std::to_string(static_cast<double>(counted.popc_calls) / threads).substr(0, 4) + " popcs, " +
        std::to_string(counted.shuffle_calls) + " shuffles in all");
    using scanlab::grading::measured_against, scanlab::grading::Needed;
    const std::string of_threads = " of " + std::to_string(threads) + " threads";
    EXPECT_TRUE(measured_against("__ballot_sync calls" + of_threads, counted.ballot_calls, Needed::exactly, threads)
                << ": one per thread");
    EXPECT_TRUE(measured_against("__popc calls" + of_threads, counted.popc_calls, Needed::exactly, threads)
                << ": one per thread");
    EXPECT_TRUE(measured_against("shuffles" + of_threads, counted.shuffle_calls, Needed::exactly, 0ull)
                << ": a ballot and a population count need no shuffle");
#endif
}

}  // namespace
