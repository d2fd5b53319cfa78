// The checks every section-based device scan is graded with: one block scans one section of
// consecutive elements, sections are independent.
//
// `entry` is a generic callable that calls the lab's template for one section shape, e.g.
//   [](auto in, auto out, std::size_t n, SectionShape shape, auto op) {
//       kogge_stone_inplace_scan(in, out, n, shape.threads, op);
//   }
// so one helper serves every (T, Op) pair, the counting operator included.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "measured_against.hpp"
#include "operation_counter.hpp"
#include "scan_cases.hpp"
#include "scan_run.hpp"
#include "scanlab/reference_scan.hpp"
#include "scanlab/section_size.hpp"
#include "sim_reports.hpp"
#include "test_sizes.hpp"

namespace scanlab::grading {

// What a section scan algorithm promises: its kind, the shapes it is graded at, its depth
// (for float bounds) and the exact number of operator applications for one (padded) section.
struct SectionScanSpec {
    ScanKind kind;
    std::vector<SectionShape> shapes;
    std::function<unsigned(SectionShape)> depth;
    std::function<unsigned long long(SectionShape)> applications_per_section;
};

inline std::string describe(std::size_t n, SectionShape shape) {
    return "n = " + std::to_string(n) + ", " + describe(shape);
}

template <class Case, class Entry>
void expect_section_scan_correct(Entry entry, const SectionScanSpec& spec) {
    for (const SectionShape shape : spec.shapes) {
        for (const std::size_t n : sizes_around_section(shape.section_size())) {
            SCOPED_TRACE(describe(n, shape));
            ScanRun<Case> run(Space::device, n, shape.section_size());
            ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), n, shape, typename Case::Op{}); }));
            EXPECT_TRUE(run.output_matches(spec.kind, shape.section_size(), spec.depth(shape)));
        }
    }
}

// The padded last section counts in full: its threads past n work on identities.
template <class Entry>
void expect_section_scan_applications(Entry entry, const SectionScanSpec& spec) {
    for (const SectionShape shape : spec.shapes) {
        const unsigned section_size = shape.section_size();
        for (const std::size_t n : sizes_around_section(section_size)) {
            SCOPED_TRACE(describe(n, shape));
            ScanRun<Int32Plus> run(Space::device, n, section_size);
            OperationCounter counter(Space::device);
            ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), n, shape, counter.wrap(Plus<int>{})); }));
            EXPECT_TRUE(run.output_matches(spec.kind, section_size, spec.depth(shape)));
            const unsigned long long expected = ceil_div(n, section_size) * spec.applications_per_section(shape);
            const std::size_t sections = ceil_div(n, section_size);
            EXPECT_TRUE(measured_against("operator applications for " + std::to_string(sections) +
                                             (sections == 1 ? " section of " : " sections of ") + std::to_string(section_size),
                                         counter.count(), Needed::exactly, expected));
        }
    }
}

// Sizes with full and partial sections. A race-free scan must also be a complete one (every
// output written); its values are the correctness checks' to judge.
inline std::vector<std::size_t> race_check_sizes(unsigned section_size) {
    return {7, 2 * static_cast<std::size_t>(section_size) + 3};
}

template <class Entry>
void expect_section_scan_race_free(Entry entry, const SectionScanSpec& spec) {
    for (const SectionShape shape : spec.shapes) {
        const unsigned section_size = shape.section_size();
        for (const std::size_t n : race_check_sizes(section_size)) {
            SCOPED_TRACE(describe(n, shape));
            ScanRun<AffineCompose> run(Space::device, n, section_size);
            discard_simulator_reports();
            ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), n, shape, ComposeAffine<unsigned>{}); }));
            EXPECT_TRUE(no_simulator_errors());
            EXPECT_TRUE(run.output_written());
        }
    }
}

template <class Entry>
void expect_section_scan_leaves_input(Entry entry, const SectionScanSpec& spec) {
    for (const SectionShape shape : spec.shapes) {
        const unsigned section_size = shape.section_size();
        const std::size_t n = 2 * static_cast<std::size_t>(section_size) + 3;
        SCOPED_TRACE(describe(n, shape));
        ScanRun<AffineCompose> run(Space::device, n, section_size);
        ASSERT_TRUE(run.call([&] { entry(run.in(), run.out(), n, shape, ComposeAffine<unsigned>{}); }));
        EXPECT_TRUE(run.input_unmodified());
        EXPECT_TRUE(run.output_written());
    }
}

}  // namespace scanlab::grading
