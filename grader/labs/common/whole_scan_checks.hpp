// The checks of scans of a whole array of any length (labs 06 and 07), whose entry is
//   entry(const T* d_in, T* d_out, std::size_t n, unsigned tile_size, Op op)
// with tiles of tile_size elements, one block of tile_size / kTileItemsPerThread threads per
// tile (lab 06's tile scan). `entry` is a generic callable forwarding to the lab's template,
// e.g.
//   [](auto... args) { hierarchical_scan(args...); }
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "measured_against.hpp"
#include "operation_counter.hpp"
#include "scan_cases.hpp"
#include "scan_run.hpp"
#include "scanlab/reference_scan.hpp"
#include "scanlab/section_size.hpp"
#include "sim_reports.hpp"

namespace scanlab::grading {

// The tiles of labs 06 and 07: 32 to 1024 threads of kTileItemsPerThread consecutive
// elements each. The smallest tile (one warp) reaches three levels (lab 06) or many tiles
// (lab 07) with small arrays; the largest that the grader uses holds 8-byte elements in
// 48 KiB of shared memory.
inline constexpr unsigned kTileItemsPerThread = 8;
inline constexpr unsigned kSmallTile = 32 * kTileItemsPerThread;
inline constexpr unsigned kLargeTile = 512 * kTileItemsPerThread;

// A size of the whole array and the tile size it is scanned with (the entry's section_size).
struct WholeSize {
    std::size_t n;
    unsigned tile_size;
};

// Levels of a hierarchical scan of that size: n, then a total per tile, until one fits
// (1 up to S elements, 2 up to S^2, 3 up to S^3).
inline unsigned levels(WholeSize s) {
    unsigned count = 1;
    for (std::size_t m = s.n; m > s.tile_size; m = ceil_div(m, s.tile_size)) ++count;
    return count;
}

inline std::string describe(WholeSize s) {
    const std::size_t tiles = ceil_div(s.n, s.tile_size);
    return "n = " + std::to_string(s.n) + ", tile_size = " + std::to_string(s.tile_size) + " (" +
           std::to_string(tiles) + " tile" + (tiles == 1 ? "" : "s") + ")";
}

// 1, 2 and 3 levels, around the sizes where a tile or a level is added.
inline std::vector<WholeSize> whole_scan_sizes() {
    constexpr unsigned S = kSmallTile;
    return {{0, S},         {1, S},         {S - 1, S},      {S, S},          {S + 1, S},
            {S * S - 1, S}, {S * S, S},     {S * S + 1, S},  {70001, S},      {40961, 2 * S},
            {kLargeTile + 1, kLargeTile},   {5 * kLargeTile + 3, kLargeTile}};
}

// The longest chain of operator applications behind one output element, per level: a tile's
// total (a thread's items, then across the lanes and across the warps of a block: 8 + 5 + 5)
// on the way up, and on the way down a thread's items, the lanes, the warps, what comes
// before the tile and before the warp, and the items again (8 + 5 + 5 + 2 + 8).
inline unsigned whole_scan_depth(WholeSize s) {
    constexpr unsigned kWarpSteps = 5;  // log2(32)
    return levels(s) * (3 * kTileItemsPerThread + 4 * kWarpSteps + 2);
}

template <class Case, class Entry>
void expect_whole_scan_correct(Entry entry, const std::vector<WholeSize>& sizes = whole_scan_sizes()) {
    for (const WholeSize size : sizes) {
        SCOPED_TRACE(describe(size));
        ScanRun<Case> run(Space::device, size.n, size.tile_size);
        ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), size.n, size.tile_size, typename Case::Op{}); }));
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, kWholeArray, whole_scan_depth(size)));
    }
}

// Reduce then scan, with most of the work done by threads on their own items, keeps the whole
// scan within 4n - 3 applications. The padding of a partial last tile counts in full (its
// threads work on identities), so the bound is judged where n is a whole number of tiles:
// one, two and three levels.
template <class Entry>
void expect_whole_scan_within_four_n(Entry entry) {
    constexpr unsigned S = kSmallTile;
    for (const WholeSize size : {WholeSize{S, S}, WholeSize{S * S, S}, WholeSize{5 * S * S, S}, WholeSize{5 * kLargeTile, kLargeTile}}) {
        SCOPED_TRACE(describe(size));
        ScanRun<Int32Plus> run(Space::device, size.n, size.tile_size);
        OperationCounter counter(Space::device);
        ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), size.n, size.tile_size, counter.wrap(Plus<int>{})); }));
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, kWholeArray, whole_scan_depth(size)));
        EXPECT_TRUE(measured_against("operator applications", counter.count(), Needed::at_most, 4 * size.n - 3)
                    << " (4n - 3): reducing then scanning tiles of " << kTileItemsPerThread
                    << " elements per thread keeps the total within that");
    }
}

// With the non-commutative operator by default (8-byte values), or another case.
template <class Case = AffineCompose, class Entry>
void expect_whole_scan_race_free(Entry entry, const std::vector<WholeSize>& sizes) {
    for (const WholeSize size : sizes) {
        SCOPED_TRACE(describe(size));
        ScanRun<Case> run(Space::device, size.n, size.tile_size);
        discard_simulator_reports();
        ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), size.n, size.tile_size, typename Case::Op{}); }));
        EXPECT_TRUE(no_simulator_errors());
        EXPECT_TRUE(run.output_written());
    }
}

inline std::size_t free_device_bytes() {
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    SCANLAB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    return free_bytes;
}

// Whatever a call allocates, it frees. The simulator counts every byte. A GPU's
// cudaMemGetInfo moves in coarse steps (the driver hands out small buffers from larger ones:
// on an H200, eight calls leaking the totals of 70001 elements left it unchanged), so on a GPU
// the calls at 2^24 elements, whose temporary memory adds up to megabytes, show a leak.
template <class Entry>
void expect_whole_scan_frees_its_memory(Entry entry) {
    constexpr int kCalls = 8;
    std::vector<WholeSize> sizes{WholeSize{100, kSmallTile}, WholeSize{kSmallTile * kSmallTile + 1, kSmallTile},
                                 WholeSize{70001, kSmallTile}};
#ifndef SCANLAB_SIM
    sizes.push_back(WholeSize{std::size_t{1} << 24, kSmallTile});
#endif
    for (const WholeSize size : sizes) {
        SCOPED_TRACE(describe(size));
        ScanRun<Int32Plus> run(Space::device, size.n, size.tile_size);
        const std::size_t before = free_device_bytes();
        for (int i = 0; i < kCalls; ++i) {
            ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), size.n, size.tile_size, Plus<int>{}); }));
        }
        const std::size_t after = free_device_bytes();
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, kWholeArray, whole_scan_depth(size)));
        EXPECT_TRUE(::testing::AssertionResult(after == before)
                    << "device memory still allocated after " << kCalls << " calls: " << (before - after)
                    << " bytes; free the temporary buffers before returning");
    }
}

template <class Entry>
void expect_whole_scan_leaves_input(Entry entry) {
    for (const WholeSize size : {WholeSize{kSmallTile * kSmallTile + 1, kSmallTile}, WholeSize{70001, kSmallTile}}) {
        SCOPED_TRACE(describe(size));
        ScanRun<AffineCompose> run(Space::device, size.n, size.tile_size);
        ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), size.n, size.tile_size, ComposeAffine<unsigned>{}); }));
        EXPECT_TRUE(run.input_unmodified());
        EXPECT_TRUE(run.output_written());
    }
}

}  // namespace scanlab::grading
