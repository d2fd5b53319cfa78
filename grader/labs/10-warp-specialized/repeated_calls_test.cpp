#include "warp_specialized_api.hpp"

namespace {

using namespace lab10;

// One temporary storage for several calls, as a caller keeps it: each call starts from nothing
// published and the ticket at 0, whatever the call before left there. The inputs differ from
// call to call, so a status word left from an earlier call gives a wrong answer.
template <class Case, class Policy>
void expect_calls_independent(std::size_t n) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::size_t bytes = 0;
    warp_specialized_scan<Policy>(nullptr, bytes, static_cast<const typename Case::T*>(nullptr),
                                    static_cast<typename Case::T*>(nullptr), n, typename Case::Op{});
    void* storage = nullptr;
    SCANLAB_CUDA_CHECK(cudaMalloc(&storage, bytes));
    for (std::uint64_t call = 1; call <= 3; ++call) {
        SCOPED_TRACE("call " + std::to_string(call));
        ScanRun<Case> run(Space::device, n, call);
        const WholeSize size{n, TileOf<Policy>::kSize};
        EXPECT_TRUE(run.call([&] { warp_specialized_scan<Policy>(storage, bytes, run.in(), run.out(), n, typename Case::Op{}); }));
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, kWholeArray, whole_scan_depth(size)));
    }
    SCANLAB_CUDA_CHECK(cudaFree(storage));
}

TEST(Lab10RepeatedCalls, IndependentOfTheCallBefore) {
    expect_calls_independent<Int32Plus, SmallPolicy>(40 * kSmallTile + 7);
    expect_calls_independent<AffineCompose, SmallPolicy>(40 * kSmallTile + 7);
}

}  // namespace
