#include "single_pass_api.hpp"

namespace {

using namespace lab07;

TEST(Lab07RaceFreedom, SinglePass) { expect_whole_scan_race_free(kSinglePass, {{200, 64}, {4097, 64}, {10247, 2048}}); }

}  // namespace
