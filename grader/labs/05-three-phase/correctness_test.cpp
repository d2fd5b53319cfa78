#include "three_phase_api.hpp"

namespace {

using namespace lab05;

template <class Case>
class Lab05Correctness : public ::testing::Test {};
TYPED_TEST_SUITE(Lab05Correctness, ScanCases, ScanCaseNames);

TYPED_TEST(Lab05Correctness, ThreePhase) { expect_section_scan_correct<TypeParam>(kThreePhase, kThreePhaseSpec); }

}  // namespace
