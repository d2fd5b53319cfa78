#include "kogge_stone_api.hpp"

namespace {

using namespace scanlab::grading;

TEST(Lab02RaceFreedom, InPlace) { expect_section_scan_race_free(lab02::kInPlace, lab02::kKoggeStone); }
TEST(Lab02RaceFreedom, DoubleBuffer) { expect_section_scan_race_free(lab02::kDoubleBuffer, lab02::kKoggeStone); }

}  // namespace
