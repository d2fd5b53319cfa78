#include "decoupled_lookback_api.hpp"

namespace {

using namespace lab09;

TEST(Lab09InputUnmodified, DecoupledLookback) { expect_whole_scan_leaves_input(kLookback); }

}  // namespace
