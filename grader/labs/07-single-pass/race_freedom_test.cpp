#include "single_pass_api.hpp"

namespace {

using namespace lab07;

// Values of 8 bytes (affine maps) hand over a prefix and a flag; values of 4 bytes (int, max)
// one word that holds both.
TEST(Lab07RaceFreedom, SinglePass) {
    const std::vector<WholeSize> sizes{{200, kSmallTile}, {16 * kSmallTile + 1, kSmallTile}, {5 * kLargeTile + 3, kLargeTile}};
    expect_whole_scan_race_free<AffineCompose>(kSinglePass, sizes);
    expect_whole_scan_race_free<Int32Max>(kSinglePass, sizes);
}

}  // namespace
