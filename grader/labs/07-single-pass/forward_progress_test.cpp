#include "single_pass_api.hpp"

#ifdef SCANLAB_SIM
#include <scanlab/sim/diagnostics.hpp>
#endif

namespace {

using namespace lab07;

#ifdef SCANLAB_SIM
using scanlab::sim::Schedule;

// Runs the scan with blocks started in `order`, only two resident at once: a block that
// waits for a tile no started block will ever publish is reported as a deadlock.
void expect_progress(Schedule::BlockOrder order, const char* name) {
    const Schedule original = scanlab::sim::get_schedule();
    Schedule schedule = original;
    schedule.block_order = order;
    schedule.resident_blocks = 2;
    schedule.seed = 7;
    scanlab::sim::set_schedule(schedule);
    for (const WholeSize size : {WholeSize{1000, 64}, WholeSize{4097, 64}}) {
        SCOPED_TRACE(describe(size) + ", blocks started in " + name + " order, two resident");
        ScanRun<AffineCompose> run(Space::device, size.n, size.tile_size);
        discard_simulator_reports();
        EXPECT_TRUE(run.call([&] { kSinglePass(run.in(), run.out(), size.n, size.tile_size, scanlab::ComposeAffine<unsigned>{}); }));
        EXPECT_TRUE(no_simulator_errors());
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, scanlab::kWholeArray, whole_scan_depth(size)));
    }
    scanlab::sim::set_schedule(original);
}

TEST(Lab07ForwardProgress, ForwardOrder) { expect_progress(Schedule::BlockOrder::forward, "forward"); }
TEST(Lab07ForwardProgress, ReverseOrder) { expect_progress(Schedule::BlockOrder::reverse, "reverse"); }
TEST(Lab07ForwardProgress, RandomOrder) { expect_progress(Schedule::BlockOrder::random, "seeded random"); }
#else
// On a GPU the hardware picks the order; many more tiles than can be resident at once.
TEST(Lab07ForwardProgress, ManyTiles) {
    expect_whole_scan_correct<Int32Plus>(kSinglePass, {{(1u << 24) + 3, 64}, {(1u << 26) + 5, 2048}});
}
#endif

}  // namespace
