#include <algorithm>
#include <vector>

#include "kogge_stone_api.hpp"

namespace {

using namespace scanlab::grading;

constexpr unsigned kWarpThreads = 32;

// The sections of several warps first, then the one-warp section, each shape on its own: a call
// that fails at one shape (a second bug) stops that shape only, and the first race a student
// reads is one in a block of several warps, where a missing __syncthreads() shows as a race
// between warps. A one-warp section alone shows only lanes of one warp, whose fix would be
// __syncwarp(), which leaves the bug in any larger block.
template <class Entry>
void expect_race_free_several_warps_first(Entry entry) {
    std::vector<SectionShape> shapes = lab02::kKoggeStone.shapes;
    std::stable_sort(shapes.begin(), shapes.end(), [](SectionShape a, SectionShape b) {
        return (a.threads > kWarpThreads) > (b.threads > kWarpThreads);
    });
    ASSERT_TRUE(shapes.front().threads > kWarpThreads) << "no section of several warps to check";
    for (const SectionShape shape : shapes) {
        SectionScanSpec one = lab02::kKoggeStone;
        one.shapes = {shape};
        expect_section_scan_race_free(entry, one);
    }
}

TEST(Lab02RaceFreedom, InPlace) { expect_race_free_several_warps_first(lab02::kInPlace); }
TEST(Lab02RaceFreedom, DoubleBuffer) { expect_race_free_several_warps_first(lab02::kDoubleBuffer); }

// As labs 03 and 05 call the block scans: every thread reads another thread's element of the
// result right after the scan returns (the last barrier of the scan is what orders that read).
void expect_block_scan_returns_whole_section(bool double_buffer) {
    constexpr unsigned kSectionSize = 256;  // several warps: a missing barrier is a race between warps
    SCOPED_TRACE("one section of " + std::to_string(kSectionSize) + " elements scanned by " +
                 (double_buffer ? "block_scan_double_buffer" : "block_scan_inplace") +
                 ", then thread t reads element " + std::to_string(kSectionSize - 1) + " - t");
    ScanRun<AffineCompose> run(Space::device, kSectionSize, kSectionSize);
    discard_simulator_reports();
    ASSERT_TRUE(run.call([&] {
        block_scan_then_read_across(run.in(), run.out(), kSectionSize, double_buffer, scanlab::ComposeAffine<unsigned>{});
    }));
    EXPECT_TRUE(no_simulator_errors());
}

TEST(Lab02RaceFreedom, InPlaceReturnsTheWholeSection) { expect_block_scan_returns_whole_section(false); }
TEST(Lab02RaceFreedom, DoubleBufferReturnsTheWholeSection) { expect_block_scan_returns_whole_section(true); }

}  // namespace
