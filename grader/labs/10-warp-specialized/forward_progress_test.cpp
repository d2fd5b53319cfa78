#include "warp_specialized_api.hpp"

#include "schedule_scope.hpp"

namespace {

using namespace lab10;

// Sizes of few tiles (fewer than the blocks) and of many (every block's ring of stages is used
// over and over, and the look-back goes on over several windows of 32 tiles).
const std::vector<WholeSize> kProgressSizes{{1000, kSmallTile}, {70 * kSmallTile + 1, kSmallTile}};

#ifdef SCANLAB_SIM
using scanlab::sim::Schedule;

// Runs `Policy`'s scan of `Case` at kProgressSizes: a block that waits for a tile no started
// block will publish, or for a barrier whose phase never completes (a transaction count that
// never arrives), is reported as a deadlock. The first failure ends the test (a deadlock takes
// seconds to find).
template <class Case, class Policy>
void expect_scan_under_schedule() {
    for (const WholeSize size : kProgressSizes) {
        SCOPED_TRACE(describe(size));
        ScanRun<Case> run(Space::device, size.n, size.tile_size);
        discard_simulator_reports();
        ASSERT_TRUE(run.call([&] { scan_with_storage<Policy>(run.in(), run.out(), size.n, typename Case::Op{}); }));
        ASSERT_TRUE(no_deadlock());  // a race is race-freedom's to charge
        ASSERT_TRUE(run.output_matches(ScanKind::inclusive, kWholeArray, whole_scan_depth(size)));
    }
}

// Blocks started in `order`, `resident` of them at once: the simulator's device then has
// `resident` multiprocessors, and the scan launches that many persistent blocks. Values of 8
// bytes (affine maps) and of 4 (max) take the two kinds of status words; the back-off policy
// puts waiting lanes to sleep between polls.
void expect_progress(Schedule::BlockOrder order, unsigned resident, const char* name) {
    SCOPED_TRACE(std::string("blocks started in ") + name + " order, " + std::to_string(resident) + " resident");
    const ScheduleScope scope(order, resident);
    expect_scan_under_schedule<AffineCompose, SmallPolicy>();
    if (::testing::Test::HasFatalFailure()) return;
    expect_scan_under_schedule<Int32Max, MediumPolicy>();
    if (::testing::Test::HasFatalFailure()) return;
    expect_scan_under_schedule<Int32Plus, BackoffPolicy>();
}

// Two blocks resident: tiles wait for each other while both run.
TEST(Lab10ForwardProgress, ForwardOrder) { expect_progress(Schedule::BlockOrder::forward, 2, "forward"); }
TEST(Lab10ForwardProgress, ReverseOrder) { expect_progress(Schedule::BlockOrder::reverse, 2, "reverse"); }
TEST(Lab10ForwardProgress, RandomOrder) { expect_progress(Schedule::BlockOrder::random, 2, "seeded random"); }

// One block resident at a time, and the scan launches two (the back-off policy asks for two per
// multiprocessor): as on a device that runs fewer of them at once than the occupancy promised,
// each block runs to its end before the next starts, so a tile may wait only for tiles that
// started blocks took by ticket.
TEST(Lab10ForwardProgress, OneBlockAtATimeReverse) {
    const ScheduleScope scope(Schedule::BlockOrder::reverse, 1);
    expect_scan_under_schedule<Int32Plus, BackoffPolicy>();
}

// The tuned pipeline (ring of 7 stages, 15 warps), which takes lab 09's path under 8 tiles per
// block: with two blocks resident, 2^18 int32 elements are enough tiles for the pipeline.
TEST(Lab10ForwardProgress, TunedPipelineTwoResident) {
    const ScheduleScope scope(Schedule::BlockOrder::random, 2);
    discard_simulator_reports();
    expect_whole_scan_correct<Int32Plus>(kTunedPipeline, {{std::size_t{1} << 18, kLargeTile}});
    EXPECT_TRUE(no_deadlock());
}
#else
// On a GPU the hardware picks the order: many tiles per persistent block, values of 4 bytes and
// of 8 (they travel differently through the status words).
TEST(Lab10ForwardProgress, ManyTiles) {
    expect_whole_scan_correct<Int32Plus>(kPipeline, {{(1u << 24) + 3, kSmallTile}, {(1u << 26) + 5, kLargeTile}});
    expect_whole_scan_correct<AffineCompose>(kPipeline, {{(1u << 22) + 3, kSmallTile}});
    expect_whole_scan_correct<Int32Max>(kPipeline, {{(1u << 24) + 3, kSmallTile}});
}
#endif

}  // namespace
