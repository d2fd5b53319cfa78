#include "kogge_stone_api.hpp"

namespace {

using namespace scanlab::grading;

template <class Case>
class Lab02Correctness : public ::testing::Test {};
TYPED_TEST_SUITE(Lab02Correctness, ScanCases, ScanCaseNames);

TYPED_TEST(Lab02Correctness, InPlace) { expect_section_scan_correct<TypeParam>(lab02::kInPlace, lab02::kKoggeStone); }

TYPED_TEST(Lab02Correctness, DoubleBuffer) {
    expect_section_scan_correct<TypeParam>(lab02::kDoubleBuffer, lab02::kKoggeStone);
}

}  // namespace
