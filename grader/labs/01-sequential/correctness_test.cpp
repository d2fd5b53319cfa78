#include "sequential_scan_api.hpp"

namespace {

using namespace lab01;

template <class Case>
class Lab01Correctness : public ::testing::Test {};
TYPED_TEST_SUITE(Lab01Correctness, ScanCases, ScanCaseNames);

template <class Case>
void expect_correct(const std::vector<HostScan>& scans) {
    for (const HostScan& scan : scans) {
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(describe(scan, n));
            ScanRun<Case> run(Space::host, n, n);
            ASSERT_TRUE(run.call([&] { call(scan, run.in(), run.out(), n, typename Case::Op{}); }));
            EXPECT_TRUE(run.output_matches(scan.kind, scanlab::kWholeArray, depth(n)));
        }
    }
}

TYPED_TEST(Lab01Correctness, Sequential) { expect_correct<TypeParam>(sequential_scans()); }
TYPED_TEST(Lab01Correctness, ParallelCpu) { expect_correct<TypeParam>(parallel_scans()); }

}  // namespace
