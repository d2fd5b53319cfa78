#include "hierarchical_api.hpp"

namespace {

using namespace lab06;

TEST(Lab06InputUnmodified, Hierarchical) { expect_whole_scan_leaves_input(kHierarchical); }

}  // namespace
