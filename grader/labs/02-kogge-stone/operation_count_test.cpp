#include "kogge_stone_api.hpp"

namespace {

using namespace scanlab::grading;

TEST(Lab02OperationCount, InPlace) { expect_section_scan_applications(lab02::kInPlace, lab02::kKoggeStone); }
TEST(Lab02OperationCount, DoubleBuffer) { expect_section_scan_applications(lab02::kDoubleBuffer, lab02::kKoggeStone); }

}  // namespace
