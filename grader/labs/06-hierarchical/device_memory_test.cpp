#include "hierarchical_api.hpp"

namespace {

using namespace lab06;

std::size_t free_device_bytes() {
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    SCANLAB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    return free_bytes;
}

// Whatever a call allocates, it frees. The simulator counts every byte; a GPU's
// cudaMemGetInfo sees whole pages only, so there a leak shows after repeated calls.
TEST(Lab06DeviceMemory, NothingLeaks) {
    constexpr int kCalls = 8;
    for (const Size size : {Size{100, 64}, Size{4097, 64}, Size{70001, 64}}) {
        SCOPED_TRACE(describe(size));
        ScanRun<Int32Plus> run(Space::device, size.n, size.section_size);
        const std::size_t before = free_device_bytes();
        for (int i = 0; i < kCalls; ++i) {
            ASSERT_TRUE(run.call([&] { hierarchical_scan(run.in(), run.out(), size.n, size.section_size, scanlab::Plus<int>{}); }));
        }
        const std::size_t after = free_device_bytes();
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, scanlab::kWholeArray, depth(size)));
        EXPECT_EQ(after, before) << "device memory still allocated after " << kCalls << " calls: " << (before - after)
                                 << " bytes; free the temporary buffers before returning";
    }
}

}  // namespace
