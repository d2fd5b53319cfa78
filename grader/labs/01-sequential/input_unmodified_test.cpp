#include "sequential_scan_api.hpp"

namespace {

using namespace lab01;

void expect_input_left_alone(const std::vector<HostScan>& scans) {
    for (const HostScan& scan : scans) {
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(describe(scan, n));
            ScanRun<AffineCompose> run(Space::host, n, n);
            ASSERT_TRUE(run.call([&] { call(scan, run.in(), run.out(), n, scanlab::ComposeAffine<unsigned>{}); }));
            EXPECT_TRUE(run.input_unmodified());
            EXPECT_TRUE(run.output_written());
        }
    }
}

TEST(Lab01InputUnmodified, Sequential) { expect_input_left_alone(sequential_scans()); }
TEST(Lab01InputUnmodified, ParallelCpu) { expect_input_left_alone(parallel_scans()); }

}  // namespace
