#include "measured_against.hpp"
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
        EXPECT_TRUE(measured_against("operator applications of " + inclusive.name, count_applications(inclusive, n),
                                     Needed::exactly, sequential_minimum(n))
                    << " (n - 1)");
        EXPECT_TRUE(measured_against("operator applications of " + exclusive.name, count_applications(exclusive, n),
                                     Needed::at_most, sequential_minimum(n))
                    << " (n - 1)");
    }
}

// Two passes over the data: at least the sequential n - 1, at most twice that.
TEST(Lab01OperationCount, ParallelCpu) {
    for (const HostScan& scan : parallel_scans()) {
        for (const std::size_t n : sizes()) {
            SCOPED_TRACE(describe(scan, n));
            const unsigned long long applications = count_applications(scan, n);
            EXPECT_TRUE(measured_against("operator applications", applications, Needed::at_least, sequential_minimum(n))
                        << " (the sequential scan's n - 1): fewer applications of the operator than that, so some "
                           "element was never combined");
            EXPECT_TRUE(measured_against("operator applications", applications, Needed::at_most, 2 * sequential_minimum(n))
                        << " (2(n - 1)): more applications of the operator than two passes need");
        }
    }
}

}  // namespace
