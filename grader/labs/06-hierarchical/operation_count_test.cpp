#include "hierarchical_api.hpp"

namespace {

using namespace lab06;

TEST(Lab06OperationCount, AtMostFourNMinusThree) { expect_whole_scan_within_four_n(kHierarchical); }

}  // namespace
