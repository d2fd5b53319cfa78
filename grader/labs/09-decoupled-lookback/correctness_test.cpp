#include "decoupled_lookback_api.hpp"

namespace {

using namespace lab09;

template <class Case>
class Lab09Correctness : public ::testing::Test {};
TYPED_TEST_SUITE(Lab09Correctness, ScanCases, ScanCaseNames);

TYPED_TEST(Lab09Correctness, DecoupledLookback) { expect_whole_scan_correct<TypeParam>(kLookback); }

}  // namespace
