#include "brent_kung_api.hpp"

namespace {

using namespace lab04;

TEST(Lab04OperationCount, Inclusive) { expect_section_scan_applications(kInclusive, kBrentKung); }
TEST(Lab04OperationCount, Exclusive) { expect_section_scan_applications(kExclusive, kBrentKungExclusive); }

}  // namespace
