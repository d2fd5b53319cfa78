#include "sequential_scan_api.hpp"

namespace {

using namespace lab01;

// Runs `scan` with a counting Plus<int> and checks the output; returns the applications.
unsigned long long count_applications(const HostScan& scan, std::size_t n) {
    ScanRun<Int32Plus> run(Space::host, n, n);
    OperationCounter counter(Space::host);
    EXPECT_TRUE(run.call([&] { call(scan, run.in(), run.out(), n, counter.wrap(scanlab::Plus<int>{})); }));
    EXPECT_TRUE(run.output_matches(scan.kind, scanlab::kWholeArray, depth(n)));
    return counter.count();
}

inline unsigned long long sequential_minimum(std::size_t n) { return n == 0 ? 0 : n - 1; }

// The sequential inclusive scan is the yardstick of work efficiency: exactly n - 1. The
// exclusive one never needs more (its last element enters no output).
TEST(Lab01OperationCount, Sequential) {
    const std::vector<HostScan> scans = sequential_scans();
    const HostScan& inclusive = scans[0];
    const HostScan& exclusive = scans[1];
    for (const std::size_t n : sizes()) {
        SCOPED_TRACE("n = " + std::to_string(n));
        EXPECT_EQ(count_applications(inclusive, n), sequential_minimum(n)) << inclusive.name;
        EXPECT_LE(count_applications(exclusive, n), sequential_minimum(n)) << exclusive.name;
    }
}

// Two passes over the data: at least the sequential n - 1, at most twice that.
TEST(Lab01OperationCount, ParallelCpu) {
    for (const HostScan& scan : parallel_scans()) {
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(describe(scan, n));
            const unsigned long long applications = count_applications(scan, n);
            EXPECT_GE(applications, sequential_minimum(n))
                << "fewer applications of the operator than the sequential scan's n - 1: some element was never combined";
            EXPECT_LE(applications, 2 * sequential_minimum(n))
                << "more applications of the operator than two passes need, 2(n - 1)";
        }
    }
}

}  // namespace
