#include "hierarchical_api.hpp"

namespace {

using namespace lab06;

TEST(Lab06RaceFreedom, Hierarchical) {
    for (const Size size : {Size{200, 64}, Size{4097, 64}, Size{70001, 64}}) {
        SCOPED_TRACE(describe(size));
        ScanRun<AffineCompose> run(Space::device, size.n, size.section_size);
        discard_simulator_reports();
        ASSERT_TRUE(run.call([&] { hierarchical_scan(run.in(), run.out(), size.n, size.section_size, scanlab::ComposeAffine<unsigned>{}); }));
        EXPECT_TRUE(no_simulator_errors());
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, scanlab::kWholeArray, depth(size)));
    }
}

}  // namespace
