#include "hierarchical_api.hpp"

namespace {

using namespace lab06;

template <class Case>
class Lab06Correctness : public ::testing::Test {};
TYPED_TEST_SUITE(Lab06Correctness, ScanCases, ScanCaseNames);

TYPED_TEST(Lab06Correctness, Hierarchical) {
    for (const Size size : sizes()) {
        SCOPED_TRACE(describe(size));
        ScanRun<TypeParam> run(Space::device, size.n, size.section_size);
        ASSERT_TRUE(run.call([&] { hierarchical_scan(run.in(), run.out(), size.n, size.section_size, typename TypeParam::Op{}); }));
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, scanlab::kWholeArray, depth(size)));
    }
}

}  // namespace
