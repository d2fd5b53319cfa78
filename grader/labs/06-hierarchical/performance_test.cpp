// Lab 06's performance check (GPU only): the submission's hierarchical scan of 2^27 int32
// against the reference solution's and CUB's InclusiveSum, in the same run
// (performance_check.hpp).
#include <gtest/gtest.h>

#include "hierarchical_api.hpp"
#include "performance_check.hpp"

namespace lab06 {
namespace {

// The tile of the reference's bench series (grader/labs/06-hierarchical/bench_adapter.cu).
constexpr unsigned kPerformanceTile = kLargeTile;

TEST(Lab06Performance, LargeArrayAgainstReferenceAndCub) {
#if SCANLAB_PERFORMANCE_TIMED
    expect_performance(
        [](const int* in, int* out, std::size_t n) { hierarchical_scan(in, out, n, kPerformanceTile, scanlab::Plus<int>{}); },
        SCANLAB_REFERENCE_SCAN([](const int* in, int* out, std::size_t n) {
            scanlab_reference::hierarchical_scan(in, out, n, kPerformanceTile, scanlab::Plus<int>{});
        }));
#else
    SCANLAB_SKIP_PERFORMANCE();
#endif
}

}  // namespace
}  // namespace lab06
