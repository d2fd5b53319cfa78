// Lab 10's performance check (GPU only): the submission's look-back scan of 2^27 int32, with its
// tuned policy, against the reference solution's and CUB's InclusiveSum, in the same run
// (performance_check.hpp). Like CUB's, its temporary storage is the caller's, allocated
// outside the timed calls.
#include <gtest/gtest.h>

#include "warp_specialized_api.hpp"
#include "performance_check.hpp"
#include "scanlab/device_scratch.hpp"

namespace lab10 {
namespace {

#if SCANLAB_PERFORMANCE_TIMED
using TunedEntry = void (*)(void*, std::size_t&, const int*, int*, std::size_t, scanlab::Plus<int>);

// One call as a user makes it: the size of the temporary storage, then the scan.
void scan_with(scanlab::DeviceScratch& storage, TunedEntry scan, const int* in, int* out, std::size_t n) {
    std::size_t bytes = 0;
    scan(nullptr, bytes, in, out, n, scanlab::Plus<int>{});
    scan(storage.reserve(bytes), bytes, in, out, n, scanlab::Plus<int>{});
}
#endif

TEST(Lab10Performance, LargeArrayAgainstReferenceAndCub) {
#if SCANLAB_PERFORMANCE_TIMED
    scanlab::DeviceScratch mine, theirs;
    const TunedEntry submission = warp_specialized_scan<int, scanlab::Plus<int>>;
    expect_performance([&](const int* in, int* out, std::size_t n) { scan_with(mine, submission, in, out, n); },
                       SCANLAB_REFERENCE_SCAN([&](const int* in, int* out, std::size_t n) {
                           const TunedEntry reference = scanlab_reference::warp_specialized_scan<int, scanlab::Plus<int>>;
                           scan_with(theirs, reference, in, out, n);
                       }));
#else
    SCANLAB_SKIP_PERFORMANCE();
#endif
}

}  // namespace
}  // namespace lab10
