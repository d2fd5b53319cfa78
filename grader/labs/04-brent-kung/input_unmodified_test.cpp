#include "brent_kung_api.hpp"

namespace {

using namespace lab04;

TEST(Lab04InputUnmodified, Inclusive) { expect_section_scan_leaves_input(kInclusive, kBrentKung); }
TEST(Lab04InputUnmodified, Exclusive) { expect_section_scan_leaves_input(kExclusive, kBrentKungExclusive); }

}  // namespace
