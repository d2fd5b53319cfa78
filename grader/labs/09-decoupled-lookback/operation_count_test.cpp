#include "decoupled_lookback_api.hpp"

namespace {

using namespace lab09;

TEST(Lab09OperationCount, AtMostFourNMinusThree) { expect_whole_scan_within_four_n(kLookback); }

}  // namespace
