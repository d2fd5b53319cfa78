// The checks of scans of a whole array of any length (labs 06 and 07), whose entry is
//   entry(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op)
// with sections (tiles) of section_size elements scanned by lab 04's block scan. `entry` is
// a generic callable forwarding to the lab's template, e.g.
//   [](auto... args) { hierarchical_scan(args...); }
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "operation_counter.hpp"
#include "scan_cases.hpp"
#include "scan_run.hpp"
#include "scanlab/reference_scan.hpp"
#include "scanlab/section_size.hpp"
#include "sim_reports.hpp"

namespace scanlab::grading {

// A size of the whole array and the section size it is scanned with. Small sections reach
// three levels (lab 06) or many tiles (lab 07) with small arrays.
struct WholeSize {
    std::size_t n;
    unsigned section_size;
};

// Levels of a hierarchical scan of that size: n, then a total per section, until one fits
// (1 up to S elements, 2 up to S^2, 3 up to S^3).
inline unsigned levels(WholeSize s) {
    unsigned count = 1;
    for (std::size_t m = s.n; m > s.section_size; m = ceil_div(m, s.section_size)) ++count;
    return count;
}

inline std::string describe(WholeSize s) {
    const std::size_t sections = ceil_div(s.n, s.section_size);
    return "n = " + std::to_string(s.n) + ", section_size = " + std::to_string(s.section_size) + " (" +
           std::to_string(sections) + " section" + (sections == 1 ? "" : "s") + ")";
}

// 1, 2 and 3 levels, around the sizes where a section or a level is added.
inline std::vector<WholeSize> whole_scan_sizes() {
    return {{0, 64},    {1, 64},     {63, 64},    {64, 64},    {65, 64},      {4095, 64},
            {4096, 64}, {4097, 64},  {70001, 64}, {16385, 128}, {2049, 2048}, {10247, 2048}};
}

// Each level adds a section scan (at most 2*log2(S) applications on a path) and one
// application to combine what comes before.
inline unsigned whole_scan_depth(WholeSize s) { return levels(s) * (2 * ceil_log2(s.section_size) + 1); }

template <class Case, class Entry>
void expect_whole_scan_correct(Entry entry, const std::vector<WholeSize>& sizes = whole_scan_sizes()) {
    for (const WholeSize size : sizes) {
        SCOPED_TRACE(describe(size));
        ScanRun<Case> run(Space::device, size.n, size.section_size);
        ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), size.n, size.section_size, typename Case::Op{}); }));
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, kWholeArray, whole_scan_depth(size)));
    }
}

// A work-efficient section scan keeps the whole scan within 4n - 3 applications. The
// padding of a partial last section counts in full (its threads work on identities), so
// the bound is judged where n is a whole number of sections: one, two and three levels.
template <class Entry>
void expect_whole_scan_within_four_n(Entry entry) {
    for (const WholeSize size : {WholeSize{64, 64}, WholeSize{4096, 64}, WholeSize{5 * 4096, 64}, WholeSize{5 * 2048, 2048}}) {
        SCOPED_TRACE(describe(size));
        ScanRun<Int32Plus> run(Space::device, size.n, size.section_size);
        OperationCounter counter(Space::device);
        ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), size.n, size.section_size, counter.wrap(Plus<int>{})); }));
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, kWholeArray, whole_scan_depth(size)));
        EXPECT_LE(counter.count(), 4 * size.n - 3)
            << "operator applications; a work-efficient section scan (labs 04, 05) keeps the total within 4n - 3";
    }
}

template <class Entry>
void expect_whole_scan_race_free(Entry entry, const std::vector<WholeSize>& sizes) {
    for (const WholeSize size : sizes) {
        SCOPED_TRACE(describe(size));
        ScanRun<AffineCompose> run(Space::device, size.n, size.section_size);
        discard_simulator_reports();
        ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), size.n, size.section_size, ComposeAffine<unsigned>{}); }));
        EXPECT_TRUE(no_simulator_errors());
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, kWholeArray, whole_scan_depth(size)));
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
    std::vector<WholeSize> sizes{WholeSize{100, 64}, WholeSize{4097, 64}, WholeSize{70001, 64}};
#ifndef SCANLAB_SIM
    sizes.push_back(WholeSize{std::size_t{1} << 24, 64});
#endif
    for (const WholeSize size : sizes) {
        SCOPED_TRACE(describe(size));
        ScanRun<Int32Plus> run(Space::device, size.n, size.section_size);
        const std::size_t before = free_device_bytes();
        for (int i = 0; i < kCalls; ++i) {
            ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), size.n, size.section_size, Plus<int>{}); }));
        }
        const std::size_t after = free_device_bytes();
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, kWholeArray, whole_scan_depth(size)));
        EXPECT_EQ(after, before) << "device memory still allocated after " << kCalls << " calls: " << (before - after)
                                 << " bytes; free the temporary buffers before returning";
    }
}

template <class Entry>
void expect_whole_scan_leaves_input(Entry entry) {
    for (const WholeSize size : {WholeSize{4097, 64}, WholeSize{70001, 64}}) {
        SCOPED_TRACE(describe(size));
        ScanRun<AffineCompose> run(Space::device, size.n, size.section_size);
        ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), size.n, size.section_size, ComposeAffine<unsigned>{}); }));
        EXPECT_TRUE(run.input_unmodified());
        EXPECT_TRUE(run.output_matches(ScanKind::inclusive, kWholeArray, whole_scan_depth(size)));
    }
}

}  // namespace scanlab::grading
