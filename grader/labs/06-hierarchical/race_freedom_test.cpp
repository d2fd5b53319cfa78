#include "hierarchical_api.hpp"

namespace {

using namespace lab06;

TEST(Lab06RaceFreedom, Hierarchical) {
    expect_whole_scan_race_free(kHierarchical, {{200, kSmallTile}, {kSmallTile * kSmallTile + 1, kSmallTile}, {70001, kSmallTile}});
}

}  // namespace
