// The checks every section-based device scan is graded with (labs whose entry has the shape
// entry(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op)).
//
// `entry` is a generic callable forwarding to the lab's template, e.g.
//   [](auto... args) { kogge_stone_inplace_scan(args...); }
// so one helper serves every (T, Op) pair, the counting operator included.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <functional>

#include "operation_counter.hpp"
#include "scan_cases.hpp"
#include "scan_run.hpp"
#include "scanlab/reference_scan.hpp"
#include "scanlab/section_size.hpp"
#include "sim_reports.hpp"
#include "test_sizes.hpp"

namespace scanlab::grading {

// What a section scan algorithm promises: its kind, its depth (for float bounds) and the
// exact number of operator applications for one (padded) section of S elements.
struct SectionScanSpec {
    ScanKind kind;
    std::function<unsigned(unsigned section_size)> depth;
    std::function<unsigned long long(unsigned section_size)> applications_per_section;
};

inline std::string describe(std::size_t n, unsigned section_size) {
    return "n = " + std::to_string(n) + ", section_size = " + std::to_string(section_size);
}

template <class Case, class Entry>
void expect_section_scan_correct(Entry entry, const SectionScanSpec& spec) {
    for (const unsigned section_size : section_sizes()) {
        for (const std::size_t n : sizes_around_section(section_size)) {
            SCOPED_TRACE(describe(n, section_size));
            ScanRun<Case> run(Space::device, n, section_size);
            ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), n, section_size, typename Case::Op{}); }));
            EXPECT_TRUE(run.output_matches(spec.kind, section_size, spec.depth(section_size)));
        }
    }
}

// The padded last section counts in full: its threads past n work on identities.
template <class Entry>
void expect_section_scan_applications(Entry entry, const SectionScanSpec& spec) {
    for (const unsigned section_size : section_sizes()) {
        for (const std::size_t n : sizes_around_section(section_size)) {
            SCOPED_TRACE(describe(n, section_size));
            ScanRun<Int32Plus> run(Space::device, n, section_size);
            OperationCounter counter(Space::device);
            ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), n, section_size, counter.wrap(Plus<int>{})); }));
            EXPECT_TRUE(run.output_matches(spec.kind, section_size, spec.depth(section_size)));
            const unsigned long long expected = ceil_div(n, section_size) * spec.applications_per_section(section_size);
            EXPECT_EQ(counter.count(), expected) << "operator applications for " << ceil_div(n, section_size)
                                                 << " section(s) of " << section_size;
        }
    }
}

// Sizes with full and partial sections; a race-free scan must also be a correct one.
inline std::vector<std::size_t> race_check_sizes(unsigned section_size) {
    return {7, 2 * static_cast<std::size_t>(section_size) + 3};
}

template <class Entry>
void expect_section_scan_race_free(Entry entry, const SectionScanSpec& spec) {
    for (const unsigned section_size : section_sizes()) {
        for (const std::size_t n : race_check_sizes(section_size)) {
            SCOPED_TRACE(describe(n, section_size));
            ScanRun<AffineCompose> run(Space::device, n, section_size);
            discard_simulator_reports();
            ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), n, section_size, ComposeAffine<unsigned>{}); }));
            EXPECT_TRUE(no_simulator_errors());
            EXPECT_TRUE(run.output_matches(spec.kind, section_size, spec.depth(section_size)));
        }
    }
}

template <class Entry>
void expect_section_scan_leaves_input(Entry entry, const SectionScanSpec& spec) {
    for (const unsigned section_size : section_sizes()) {
        const std::size_t n = 2 * static_cast<std::size_t>(section_size) + 3;
        SCOPED_TRACE(describe(n, section_size));
        ScanRun<AffineCompose> run(Space::device, n, section_size);
        ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), n, section_size, ComposeAffine<unsigned>{}); }));
        EXPECT_TRUE(run.input_unmodified());
        EXPECT_TRUE(run.output_matches(spec.kind, section_size, spec.depth(section_size)));
    }
}

}  // namespace scanlab::grading
