#include "exclusive_scan_api.hpp"

namespace {

using namespace lab03;

TEST(Lab03RaceFreedom, ExclusiveScan) { expect_section_scan_race_free(kExclusiveScan, kKoggeStoneExclusive); }

}  // namespace
