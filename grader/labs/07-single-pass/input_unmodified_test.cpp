#include "single_pass_api.hpp"

namespace {

using namespace lab07;

TEST(Lab07InputUnmodified, SinglePass) { expect_whole_scan_leaves_input(kSinglePass); }

}  // namespace
