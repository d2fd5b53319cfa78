#include "single_pass_api.hpp"

namespace {

using namespace lab07;

TEST(Lab07DeviceMemory, NothingLeaks) { expect_whole_scan_frees_its_memory(kSinglePass); }

}  // namespace
