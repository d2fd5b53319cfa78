#include "warp_specialized_api.hpp"

namespace {

using namespace lab10;

// Values of 8 bytes (affine maps) hand over two words, each with its own copy of the state;
// values of 4 bytes (int, max) one word that holds both.
TEST(Lab10RaceFreedom, WarpSpecialized) {
    const std::vector<WholeSize> sizes{{200, kSmallTile}, {40 * kSmallTile + 1, kSmallTile}, {5 * kLargeTile + 3, kLargeTile}};
    expect_whole_scan_race_free<AffineCompose>(kPipeline, sizes);
    expect_whole_scan_race_free<Int32Max>(kPipeline, sizes);
}

}  // namespace
