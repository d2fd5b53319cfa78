#include "decoupled_lookback_api.hpp"

namespace {

using namespace lab09;

// Values of 8 bytes (affine maps) hand over two words, each with its own copy of the state;
// values of 4 bytes (int, max) one word that holds both.
TEST(Lab09RaceFreedom, DecoupledLookback) {
    const std::vector<WholeSize> sizes{{200, kSmallTile}, {40 * kSmallTile + 1, kSmallTile}, {5 * kLargeTile + 3, kLargeTile}};
    expect_whole_scan_race_free<AffineCompose>(kLookback, sizes);
    expect_whole_scan_race_free<Int32Max>(kLookback, sizes);
}

}  // namespace
