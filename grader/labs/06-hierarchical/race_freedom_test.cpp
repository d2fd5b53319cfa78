#include "hierarchical_api.hpp"

namespace {

using namespace lab06;

TEST(Lab06RaceFreedom, Hierarchical) {
    expect_whole_scan_race_free(kHierarchical, {{200, 64}, {4097, 64}, {70001, 64}});
}

}  // namespace
