#include "warp_specialized_api.hpp"

namespace {

using namespace lab10;

template <class Case>
class Lab10Correctness : public ::testing::Test {};
TYPED_TEST_SUITE(Lab10Correctness, ScanCases, ScanCaseNames);

TYPED_TEST(Lab10Correctness, WarpSpecialized) { expect_whole_scan_correct<TypeParam>(kPipeline); }

// The tuned policy, whatever its tile: one element, and a few tiles of any size up to 8192
// elements with a partial last tile.
TYPED_TEST(Lab10Correctness, TunedPolicy) {
    expect_whole_scan_correct<TypeParam>(kTunedPipeline, {{1, kLargeTile}, {3 * 8192 + 5, kLargeTile}});
}

// The scan refuses too little temporary storage, with a clear error, and writes nothing.
TEST(Lab10TempStorage, TooLittleIsRefused) {
    constexpr std::size_t n = 5 * kSmallTile;
    ScanRun<Int32Plus> run(Space::device, n, 1);
    std::size_t bytes = 0;
    warp_specialized_scan<SmallPolicy>(nullptr, bytes, run.in(), run.out(), n, Plus<int>{});
    ASSERT_TRUE(::testing::AssertionResult(bytes > 0) << "the scan of " << n << " elements asks for no temporary storage");
    void* storage = nullptr;
    SCANLAB_CUDA_CHECK(cudaMalloc(&storage, bytes));
    std::size_t too_few = bytes - 1;
    EXPECT_THROW(warp_specialized_scan<SmallPolicy>(storage, too_few, run.in(), run.out(), n, Plus<int>{}),
                 std::invalid_argument);
    SCANLAB_CUDA_CHECK(cudaFree(storage));
}

}  // namespace
