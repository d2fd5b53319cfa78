#include "warp_specialized_api.hpp"

namespace {

using namespace lab10;

TEST(Lab10OperationCount, AtMostFourNMinusThree) { expect_whole_scan_within_four_n(kPipeline); }

}  // namespace
