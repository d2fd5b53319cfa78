#include "hierarchical_api.hpp"

namespace {

using namespace lab06;

template <class Case>
class Lab06Correctness : public ::testing::Test {};
TYPED_TEST_SUITE(Lab06Correctness, ScanCases, ScanCaseNames);

TYPED_TEST(Lab06Correctness, Hierarchical) { expect_whole_scan_correct<TypeParam>(kHierarchical); }

}  // namespace
