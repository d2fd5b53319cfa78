#include "brent_kung_api.hpp"

namespace {

using namespace lab04;

TEST(Lab04RaceFreedom, Inclusive) { expect_section_scan_race_free(kInclusive, kBrentKung); }
TEST(Lab04RaceFreedom, Exclusive) { expect_section_scan_race_free(kExclusive, kBrentKungExclusive); }

}  // namespace
