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

}  // namespace
