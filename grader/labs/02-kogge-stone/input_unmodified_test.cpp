#include "kogge_stone_api.hpp"

namespace {

using namespace scanlab::grading;

TEST(Lab02InputUnmodified, InPlace) { expect_section_scan_leaves_input(lab02::kInPlace, lab02::kKoggeStone); }
TEST(Lab02InputUnmodified, DoubleBuffer) { expect_section_scan_leaves_input(lab02::kDoubleBuffer, lab02::kKoggeStone); }

}  // namespace
