#include "brent_kung_api.hpp"
#include "efficiency_checks.hpp"
#include "scanlab/operators.hpp"

namespace {

using namespace lab04;

// The largest section: 2048 elements, 1024 threads, 32 warps; two full sections.
constexpr SectionShape kLargest{1024, kElementsPerThread};
constexpr std::size_t kSections = 2;

// A step in which `working` threads (the lowest-numbered ones) do work and the others do
// not splits exactly one warp when `working` is not a multiple of the warp size.
unsigned long long split_warps(unsigned long long working) { return working % 32 != 0 ? 1 : 0; }

// The ideal: reduction step `stride` keeps S / (2 stride) threads working, distribution step
// `stride` keeps S / (2 stride) - 1.
unsigned long long ideal_divergent_intervals(unsigned section_size) {
    unsigned long long total = 0;
    for (unsigned stride = 1; stride < section_size; stride *= 2) total += split_warps(section_size / (2 * stride));
    for (unsigned stride = section_size / 4; stride > 0; stride /= 2) total += split_warps(section_size / (2 * stride) - 1);
    return total;
}

TEST(Lab04Efficiency, ReductionTreeDivergence) {
    SCANLAB_REQUIRE_COUNTERS();
#ifdef SCANLAB_SIM
    const std::size_t n = kSections * kLargest.section_size();
    ScanRun<Int32Plus> run(Space::device, n, 4);
    Counters counted;
    ASSERT_TRUE(run.call([&] { counted = count_while([&] { kInclusive(run.in(), run.out(), n, kLargest, scanlab::Plus<int>{}); }); }));
    ASSERT_TRUE(run.output_matches(ScanKind::inclusive, kLargest.section_size(), tree_depth(kLargest)));
    const unsigned long long ideal = kSections * ideal_divergent_intervals(kLargest.section_size());
    record_measurement(
        "divergent warps: " + with_spaces(counted.divergent_warp_intervals) + " of " + with_spaces(counted.warp_intervals) +
        " warp-steps (ideal " + with_spaces(ideal) + ")");
    const std::string sections = std::to_string(kSections) + " sections of " + std::to_string(kLargest.section_size());
    EXPECT_TRUE(measured_against("divergent warp-steps for " + sections, counted.divergent_warp_intervals,
                                 Needed::at_most, ideal)
        << ": in each step, the working threads should be the lowest-numbered ones, so that only the warp at the "
           "boundary between working and idle threads is split");
#endif
}

TEST(Lab04Efficiency, BankConflicts) {
    SCANLAB_REQUIRE_COUNTERS();
#ifdef SCANLAB_SIM
    const std::size_t n = kSections * kLargest.section_size();
    ScanRun<Int32Plus> run(Space::device, n, 5);
    Counters counted;
    ASSERT_TRUE(run.call([&] { counted = count_while([&] { kExclusive(run.in(), run.out(), n, kLargest, scanlab::Plus<int>{}); }); }));
    ASSERT_TRUE(run.output_matches(ScanKind::exclusive, kLargest.section_size(), tree_depth(kLargest)));
    const unsigned long long requests = counted.shared_loads.requests + counted.shared_stores.requests;
    record_measurement("bank conflicts: " + with_spaces(counted.bank_conflicts()) + " in " +
                                                    with_spaces(requests) + " shared-memory requests");
    const std::string in = " in " + with_spaces(requests) + " shared-memory requests of the exclusive scan, " +
                           std::to_string(kSections) + " sections of " + std::to_string(kLargest.section_size());
    EXPECT_TRUE(measured_against("bank conflicts" + in, counted.bank_conflicts(), Needed::exactly, 0ull)
                << ": pad the section so that the trees' strided accesses fall on different banks");
#endif
}

}  // namespace
