#include "single_pass_api.hpp"

namespace {

using namespace lab07;

template <class Case>
class Lab07Correctness : public ::testing::Test {};
TYPED_TEST_SUITE(Lab07Correctness, ScanCases, ScanCaseNames);

TYPED_TEST(Lab07Correctness, SinglePass) { expect_whole_scan_correct<TypeParam>(kSinglePass); }

// Every call resets what the blocks hand each other: the same call twice gives the same
// right answer.
TEST(Lab07RepeatedCalls, SameAnswerTwice) {
    for (const WholeSize size : {WholeSize{16 * kSmallTile + 1, kSmallTile}, WholeSize{5 * kLargeTile + 3, kLargeTile}}) {
        SCOPED_TRACE(describe(size));
        ScanRun<Int32Plus> run(Space::device, size.n, size.tile_size);
        for (int call = 1; call <= 2; ++call) {
            SCOPED_TRACE("call " + std::to_string(call));
            ASSERT_TRUE(run.call([&] { kSinglePass(run.in(), run.out(), size.n, size.tile_size, scanlab::Plus<int>{}); }));
            EXPECT_TRUE(run.output_matches(ScanKind::inclusive, scanlab::kWholeArray, whole_scan_depth(size)));
        }
    }
}

}  // namespace
