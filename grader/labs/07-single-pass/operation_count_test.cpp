#include "single_pass_api.hpp"

namespace {

using namespace lab07;

TEST(Lab07OperationCount, AtMostFourNMinusThree) { expect_whole_scan_within_four_n(kSinglePass); }

}  // namespace
