#include "efficiency_checks.hpp"
#include "scanlab/operators.hpp"
#include "three_phase_api.hpp"

namespace {

using namespace lab05;

constexpr SectionShape kShape{256, 8};
constexpr std::size_t kSections = 2;

// Every warp-wide global load and store of `int`s should touch as many 32-byte sectors as
// its bytes need: 4 for 32 consecutive elements.
TEST(Lab05Efficiency, Coalescing) {
    SCANLAB_REQUIRE_COUNTERS();
#ifdef SCANLAB_SIM
    const std::size_t n = kSections * kShape.section_size();
    ScanRun<Int32Plus> run(Space::device, n, 6);
    Counters counted;
    ASSERT_TRUE(run.call([&] { counted = count_while([&] { kThreePhase(run.in(), run.out(), n, kShape, scanlab::Plus<int>{}); }); }));
    ASSERT_TRUE(run.output_matches(ScanKind::inclusive, kShape.section_size(), kThreePhaseSpec.depth(kShape)));
    const auto& loads = counted.global_loads;
    const auto& stores = counted.global_stores;
    record_measurement(
        "global sectors: loads " + with_spaces(loads.transactions) + " (ideal " + with_spaces(loads.ideal) + "), stores " +
        with_spaces(stores.transactions) + " (ideal " + with_spaces(stores.ideal) + ")");
    EXPECT_TRUE(measured_against("global-memory sectors loaded", loads.transactions, Needed::exactly, loads.ideal)
                << ": the threads of a warp should load consecutive elements (corner turning)");
    EXPECT_TRUE(measured_against("global-memory sectors stored", stores.transactions, Needed::exactly, stores.ideal)
                << ": the threads of a warp should store consecutive elements (corner turning)");
#endif
}

}  // namespace
