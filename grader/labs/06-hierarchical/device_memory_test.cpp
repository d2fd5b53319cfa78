#include "hierarchical_api.hpp"

namespace {

using namespace lab06;

TEST(Lab06DeviceMemory, NothingLeaks) { expect_whole_scan_frees_its_memory(kHierarchical); }

}  // namespace
