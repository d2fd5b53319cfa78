#include "brent_kung_api.hpp"

namespace {

using namespace lab04;

template <class Case>
class Lab04Correctness : public ::testing::Test {};
TYPED_TEST_SUITE(Lab04Correctness, ScanCases, ScanCaseNames);

TYPED_TEST(Lab04Correctness, Inclusive) { expect_section_scan_correct<TypeParam>(kInclusive, kBrentKung); }
TYPED_TEST(Lab04Correctness, Exclusive) { expect_section_scan_correct<TypeParam>(kExclusive, kBrentKungExclusive); }

}  // namespace
