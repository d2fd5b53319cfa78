#include "single_pass_api.hpp"

#ifdef SCANLAB_SIM
#include <scanlab/sim/diagnostics.hpp>
#endif

namespace {

using namespace lab07;

#ifdef SCANLAB_SIM
using scanlab::sim::Schedule;

// Runs the scan with blocks started in `order`, only two resident at once: a block that
// waits for a tile no started block will ever publish is reported as a deadlock. Values of 8
// bytes (affine maps) and of 4 (max) take the two ways of handing over a prefix.
template <class Case>
void expect_progress_of(Schedule::BlockOrder order, const char* name) {
    const Schedule original = scanlab::sim::get_schedule();
    Schedule schedule = original;
    schedule.block_order = order;
    schedule.resident_blocks = 2;
    schedule.seed = 7;
    scanlab::sim::set_schedule(schedule);
    for (const WholeSize size : {WholeSize{1000, kSmallTile}, WholeSize{16 * kSmallTile + 1, kSmallTile}}) {
        SCOPED_TRACE(describe(size) + ", blocks started in " + name + " order, two resident");
        ScanRun<Case> run(Space::device, size.n, size.tile_size);
        discard_simulator_reports();
        EXPECT_TRUE(run.call([&] { kSinglePass(run.in(), run.out(), size.n, size.tile_size, typename Case::Op{}); }));
        EXPECT_TRUE(no_deadlock());
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, scanlab::kWholeArray, whole_scan_depth(size)));
    }
    scanlab::sim::set_schedule(original);
}

void expect_progress(Schedule::BlockOrder order, const char* name) {
    expect_progress_of<AffineCompose>(order, name);
    expect_progress_of<Int32Max>(order, name);
}

TEST(Lab07ForwardProgress, ForwardOrder) { expect_progress(Schedule::BlockOrder::forward, "forward"); }
TEST(Lab07ForwardProgress, ReverseOrder) { expect_progress(Schedule::BlockOrder::reverse, "reverse"); }
TEST(Lab07ForwardProgress, RandomOrder) { expect_progress(Schedule::BlockOrder::random, "seeded random"); }
#else
// On a GPU the hardware picks the order; many more tiles than can be resident at once. Values
// of 4 bytes and of 8 travel differently (with their flag in one word, or beside it).
TEST(Lab07ForwardProgress, ManyTiles) {
    expect_whole_scan_correct<Int32Plus>(kSinglePass, {{(1u << 24) + 3, kSmallTile}, {(1u << 26) + 5, kLargeTile}});
    expect_whole_scan_correct<AffineCompose>(kSinglePass, {{(1u << 22) + 3, kSmallTile}});
}
#endif

}  // namespace
