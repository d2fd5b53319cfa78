// Checks of a whole-array scan that works in temporary storage its caller provides, as CUB's
// scans do (labs 09 and 10). `scan` is the lab's entry with its policy chosen, called as
// scan(storage, bytes, in, out, n, op): with a null storage it only sets `bytes`.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "scan_cases.hpp"
#include "scan_run.hpp"
#include "scanlab/cuda_check.hpp"
#include "temp_storage.hpp"
#include "whole_scan_checks.hpp"

namespace scanlab::grading {

// One temporary storage for several calls, as a caller keeps it: each call starts from nothing
// published and the ticket at 0, whatever the call before left there. The inputs differ from
// call to call, so a status word left from an earlier call gives a wrong answer.
template <class Case, class Scan>
void expect_calls_with_one_storage_independent(Scan scan, std::size_t n, unsigned tile_size) {
    using T = typename Case::T;
    SCOPED_TRACE("n = " + std::to_string(n));
    std::size_t bytes = 0;
    scan(nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr), n, typename Case::Op{});
    void* storage = nullptr;
    SCANLAB_CUDA_CHECK(cudaMalloc(&storage, bytes));
    for (std::uint64_t call = 1; call <= 3; ++call) {
        SCOPED_TRACE("call " + std::to_string(call));
        ScanRun<Case> run(Space::device, n, call);
        EXPECT_TRUE(run.call([&] { scan(storage, bytes, run.in(), run.out(), n, typename Case::Op{}); }));
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, kWholeArray, whole_scan_depth({n, tile_size})));
    }
    SCANLAB_CUDA_CHECK(cudaFree(storage));
}

// Whether device memory freed before the calls is still free after them, in words where not.
inline ::testing::AssertionResult nothing_kept(std::size_t free_before, std::size_t free_after) {
    if (free_after >= free_before) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "after 4 calls, " << (free_before - free_after)
                                         << " bytes of device memory stay allocated by the scan itself: keep what it "
                                            "needs in the caller's temporary storage";
}

// The caller owns the temporary storage: the scan itself allocates nothing (an allocation per
// call would cost more than a scan of a million elements takes).
template <class Scan>
void expect_no_device_memory_of_its_own(Scan scan, unsigned tile_size) {
    for (const std::size_t n : {std::size_t{100}, std::size_t{70001}}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        ScanRun<Int32Plus> run(Space::device, n, 1);
        const auto int_scan = [&](void* storage, std::size_t& bytes) {
            scan(storage, bytes, run.in(), run.out(), n, Plus<int>{});
        };
        TempStorage storage(int_scan);
        const std::size_t before = free_device_bytes();
        for (int call = 0; call < 4; ++call) ASSERT_TRUE(run.call([&] { int_scan(storage.data(), storage.bytes()); }));
        EXPECT_TRUE(nothing_kept(before, free_device_bytes()));
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, kWholeArray, whole_scan_depth({n, tile_size})));
    }
}

}  // namespace scanlab::grading
