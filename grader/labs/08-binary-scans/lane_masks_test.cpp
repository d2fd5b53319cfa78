#include "predicate_patterns.hpp"

namespace {

using namespace lab08;

// The lab's arithmetic masks against the GPU's %lanemask registers (computed by the
// simulator), at every lane.
TEST(Lab08LaneMasks, MatchTheHardware) {
    const char* names[] = {"lt", "le", "gt", "ge"};
    const unsigned threads = 64;
    const std::vector<unsigned> out = run_lane_mask_probe(threads);
    for (unsigned t = 0; t < threads; ++t) {
        for (unsigned m = 0; m < 4; ++m) {
            EXPECT_TRUE(::testing::AssertionResult(out[8 * t + m] == out[8 * t + 4 + m])
                        << "lane_mask_" << names[m] << "(" << t % kWarp << "): 0x" << std::hex << out[8 * t + m]
                        << ", the GPU's %lanemask_" << names[m] << " is 0x" << out[8 * t + 4 + m]);
        }
    }
}

}  // namespace
