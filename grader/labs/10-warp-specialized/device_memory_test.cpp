#include "warp_specialized_api.hpp"

namespace {

using namespace lab10;

// The caller owns the temporary storage: the scan itself allocates nothing (an allocation per
// call would cost more than a scan of a million elements takes).
TEST(Lab10DeviceMemory, AllocatesNothing) {
    for (const std::size_t n : {std::size_t{100}, std::size_t{70001}}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        ScanRun<Int32Plus> run(Space::device, n, 1);
        const auto scan = [&](void* storage, std::size_t& bytes) {
            warp_specialized_scan<SmallPolicy>(storage, bytes, run.in(), run.out(), n, Plus<int>{});
        };
        TempStorage storage(scan);
        const std::size_t before = free_device_bytes();
        for (int call = 0; call < 4; ++call) ASSERT_TRUE(run.call([&] { scan(storage.data(), storage.bytes()); }));
        EXPECT_EQ(free_device_bytes(), before) << "the scan allocated device memory of its own; use the temporary storage";
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, kWholeArray, whole_scan_depth({n, kSmallTile})));
    }
}

}  // namespace
