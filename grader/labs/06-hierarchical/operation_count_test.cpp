#include "hierarchical_api.hpp"

namespace {

using namespace lab06;

// A work-efficient section scan keeps the whole scan within 4n - 3 applications. The
// padding of a partial last section counts in full (its threads work on identities), so
// the bound is judged where n is a whole number of sections: one, two and three levels.
TEST(Lab06OperationCount, AtMostFourNMinusThree) {
    for (const Size size : {Size{64, 64}, Size{4096, 64}, Size{5 * 4096, 64}, Size{5 * 2048, 2048}}) {
        SCOPED_TRACE(describe(size));
        ScanRun<Int32Plus> run(Space::device, size.n, size.section_size);
        OperationCounter counter(Space::device);
        ASSERT_TRUE(run.call([&] { hierarchical_scan(run.in(), run.out(), size.n, size.section_size, counter.wrap(scanlab::Plus<int>{})); }));
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, scanlab::kWholeArray, depth(size)));
        EXPECT_LE(counter.count(), 4 * size.n - 3) << "operator applications; a work-efficient section scan (labs 04, 05) keeps the total within 4n - 3";
    }
}

}  // namespace
