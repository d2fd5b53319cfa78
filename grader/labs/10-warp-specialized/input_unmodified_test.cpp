#include "warp_specialized_api.hpp"

namespace {

using namespace lab10;

TEST(Lab10InputUnmodified, WarpSpecialized) { expect_whole_scan_leaves_input(kPipeline); }

}  // namespace
