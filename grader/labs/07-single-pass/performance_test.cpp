// Lab 07's performance check (GPU only): the submission's single-pass scan of 2^27 int32
// against the reference solution's and CUB's InclusiveSum, in the same run
// (performance_check.hpp).
#include <gtest/gtest.h>

#include "performance_check.hpp"
#include "single_pass_api.hpp"

namespace lab07 {
namespace {

// The tile of the reference's bench series (grader/labs/07-single-pass/bench_adapter.cu): the
// largest, whose chain of hand-offs is the shortest.
constexpr unsigned kPerformanceTile = 2 * kLargeTile;

TEST(Lab07Performance, LargeArrayAgainstReferenceAndCub) {
#if SCANLAB_PERFORMANCE_TIMED
    expect_performance(
        [](const int* in, int* out, std::size_t n) { single_pass_scan(in, out, n, kPerformanceTile, scanlab::Plus<int>{}); },
        SCANLAB_REFERENCE_SCAN([](const int* in, int* out, std::size_t n) {
            scanlab_reference::single_pass_scan(in, out, n, kPerformanceTile, scanlab::Plus<int>{});
        }));
#else
    SCANLAB_SKIP_PERFORMANCE();
#endif
}

}  // namespace
}  // namespace lab07
