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

#ifdef SCANLAB_SIM
#include <scanlab/sim/device_allocations.hpp>
#endif

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

#ifdef SCANLAB_SIM
// "4 KiB", "100 bytes": a size as a student reads it.
inline std::string size_in_words(unsigned long long bytes) {
    if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
    return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

// Whether `calls` calls of the scan allocated device memory, in words where they did. A scan that
// frees what it allocated leaves the free memory as it was, so the simulator's count of
// cudaMalloc calls is what shows an allocation per call.
inline ::testing::AssertionResult allocated_nothing(const sim::DeviceAllocations& before,
                                                    const sim::DeviceAllocations& after, int calls) {
    const unsigned long long buffers = after.allocations - before.allocations;
    if (buffers == 0) return ::testing::AssertionSuccess();
    const unsigned long long freed = after.frees - before.frees;
    const unsigned long long bytes = after.bytes - before.bytes;
    auto failure = ::testing::AssertionFailure();
    if (buffers % calls == 0 && bytes % calls == 0) {
        const unsigned long long each = buffers / calls;
        failure << "each call allocated "
                << (each == 1 ? "1 buffer of " + size_in_words(bytes / calls)
                              : std::to_string(each) + " buffers, " + size_in_words(bytes / calls) + " in all,")
                << " with cudaMalloc";
    } else {
        failure << calls << " calls allocated " << buffers << " buffers, " << size_in_words(bytes)
                << " in all, with cudaMalloc";
    }
    failure << (freed < buffers ? (freed == 0 ? " and never freed it" : " and freed only part of it") : buffers == static_cast<unsigned long long>(calls) ? " and freed it" : " and freed them")
            << "; use the temporary storage the caller passes";
    return failure;
}
#endif

// The caller owns the temporary storage: the scan itself allocates nothing (an allocation per
// call would cost more than a scan of a million elements takes).
template <class Scan>
void expect_no_device_memory_of_its_own(Scan scan, unsigned tile_size) {
    constexpr int kCalls = 4;
    for (const std::size_t n : {std::size_t{100}, std::size_t{70001}}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        ScanRun<Int32Plus> run(Space::device, n, 1);
        const auto int_scan = [&](void* storage, std::size_t& bytes) {
            scan(storage, bytes, run.in(), run.out(), n, Plus<int>{});
        };
        TempStorage storage(int_scan);
        const std::size_t before = free_device_bytes();
#ifdef SCANLAB_SIM
        const sim::DeviceAllocations allocations_before = sim::device_allocations();
#endif
        for (int call = 0; call < kCalls; ++call)
            ASSERT_TRUE(run.call([&] { int_scan(storage.data(), storage.bytes()); }));
#ifdef SCANLAB_SIM
        // The count names the cause; the free memory would only repeat it.
        const auto allocated = allocated_nothing(allocations_before, sim::device_allocations(), kCalls);
        EXPECT_TRUE(allocated);
        if (allocated) EXPECT_TRUE(nothing_kept(before, free_device_bytes()));
#else
        EXPECT_TRUE(nothing_kept(before, free_device_bytes()));
#endif
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, kWholeArray, whole_scan_depth({n, tile_size})));
    }
}

}  // namespace scanlab::grading
