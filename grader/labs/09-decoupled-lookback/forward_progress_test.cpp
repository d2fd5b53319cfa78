#include "decoupled_lookback_api.hpp"

#include "schedule_scope.hpp"

namespace {

using namespace lab09;

// Sizes of few tiles (the first window of the look-back reaches past the first tile) and of
// many (the look-back goes on over several windows of 32 tiles).
const std::vector<WholeSize> kProgressSizes{{1000, kSmallTile}, {70 * kSmallTile + 1, kSmallTile}};

#ifdef SCANLAB_SIM
using scanlab::sim::Schedule;

// Runs `Policy`'s scan of `Case` at kProgressSizes: a block that waits for a tile no started
// block will publish is reported as a deadlock, a read outside the tiles' status words as an
// out-of-bounds access. The first failure ends the test (a deadlock takes seconds to find).
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

// Blocks started in `order`, `resident` of them at once. Values of 8 bytes (affine maps) and of
// 4 (max) take the two kinds of status words; the back-off policy puts waiting lanes to sleep
// between polls.
void expect_progress(Schedule::BlockOrder order, unsigned resident, const char* name) {
    SCOPED_TRACE(std::string("blocks started in ") + name + " order, " + std::to_string(resident) + " resident");
    const ScheduleScope scope(order, resident);
    expect_scan_under_schedule<AffineCompose, SmallPolicy>();
    if (::testing::Test::HasFatalFailure()) return;
    expect_scan_under_schedule<Int32Max, SmallPolicy>();
    if (::testing::Test::HasFatalFailure()) return;
    expect_scan_under_schedule<Int32Plus, BackoffPolicy>();
}

// Two blocks resident: tiles wait for each other while both run.
TEST(Lab09ForwardProgress, ForwardOrder) { expect_progress(Schedule::BlockOrder::forward, 2, "forward"); }
TEST(Lab09ForwardProgress, ReverseOrder) { expect_progress(Schedule::BlockOrder::reverse, 2, "reverse"); }
TEST(Lab09ForwardProgress, RandomOrder) { expect_progress(Schedule::BlockOrder::random, 2, "seeded random"); }

// One block resident: each block runs to its end before the next starts, so a tile may wait
// only for tiles whose blocks have taken their tickets, and those have finished. Waiting for
// any other tile (a later ticket, or a block that has not started) is a deadlock.
TEST(Lab09WaitsForStartedTiles, OneBlockAtATimeReverse) {
    expect_progress(Schedule::BlockOrder::reverse, 1, "reverse");
}
TEST(Lab09WaitsForStartedTiles, OneBlockAtATimeRandom) {
    expect_progress(Schedule::BlockOrder::random, 1, "seeded random");
}

// One block at a time in forward order, where every tile before a tile has published its
// inclusive prefix when it starts: its look-back must read only the status words of tiles
// before it. A read of its own word finds its own aggregate (a wrong result), a read of a
// later tile's waits forever (a deadlock), a read before the first tile's word or past the
// last is an out-of-bounds access.
TEST(Lab09LookbackReadsPredecessors, EachTileAlone) {
    expect_progress(Schedule::BlockOrder::forward, 1, "forward");
}
#else
// On a GPU the hardware picks the order; many more tiles than can be resident at once, and
// few tiles (the first window reaches past the first tile: compute-sanitizer's memcheck sees
// a read before the status words). Values of 4 bytes and of 8 travel differently.
TEST(Lab09ForwardProgress, ManyTiles) {
    expect_whole_scan_correct<Int32Plus>(kLookback, {{(1u << 24) + 3, kSmallTile}, {(1u << 26) + 5, kLargeTile}});
    expect_whole_scan_correct<AffineCompose>(kLookback, {{(1u << 22) + 3, kSmallTile}});
}
TEST(Lab09WaitsForStartedTiles, ManyTiles) {
    expect_whole_scan_correct<Int32Max>(kLookback, {{(1u << 24) + 3, kSmallTile}});
}
TEST(Lab09LookbackReadsPredecessors, FewAndManyTiles) {
    expect_whole_scan_correct<Int32Max>(kLookback, kProgressSizes);
    expect_whole_scan_correct<AffineCompose>(kLookback, kProgressSizes);
}
#endif

}  // namespace
