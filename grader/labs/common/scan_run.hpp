// One graded run of a scan: input of a case, guarded output, the call, and the checks.
//
//   ScanRun<Case> run(Space::device, n, seed);
//   ASSERT_TRUE(run.call([&] { lab_entry(run.in(), run.out(), run.size(), Case::Op{}); }));
//   EXPECT_TRUE(run.output_matches(ScanKind::inclusive, section_size, depth));
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "scan_compare.hpp"
#include "scanlab/cuda_check.hpp"
#include "scanlab/error_bound.hpp"
#include "scanlab/reference_scan.hpp"
#include "sim_reports.hpp"
#include "test_array.hpp"

namespace scanlab::grading {

// Runs `work` (a call into lab code) and, for device work, waits for it: an exception, a
// launch error or an error of the kernel itself (illegal address, ...) fails the check, and
// the message names what the simulator reported behind it (the launch and its configuration,
// the access out of bounds). Reports of synchronization are left to the race-freedom checks.
template <class Work>
::testing::AssertionResult call_lab(Space space, Work&& work) {
    try {
        work();
        if (space == Space::device) {
            SCANLAB_CUDA_CHECK(cudaGetLastError());
            SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
        }
    } catch (const std::exception& error) {
        const std::string cause = simulator_errors_in_brief();
        auto failure = ::testing::AssertionFailure() << "the lab code failed: " << error.what();
        if (!cause.empty()) failure << "; the simulator reported: " << cause;
        return failure;
    }
    return ::testing::AssertionSuccess();
}

// What the reference says a scan of `input` must produce, compared with `actual`. `depth`
// (see scanlab/error_bound.hpp) matters only for cases that are not exact.
template <class Case>
::testing::AssertionResult scan_matches(const std::vector<typename Case::T>& input,
                                        const std::vector<typename Case::T>& actual, ScanKind kind,
                                        std::size_t section_size, unsigned depth) {
    using T = typename Case::T;
    const std::vector<T> expected =
        reference_scan(kind, input.data(), input.size(), typename Case::Op{}, section_size);
    std::vector<T> bounds;
    if constexpr (!Case::kExact) {
        bounds = scan_error_bounds(input.data(), input.size(), depth, kind, section_size);
    }
    return matches_reference(expected, actual, bounds);
}

template <class Case>
class ScanRun {
public:
    using T = typename Case::T;

    ScanRun(Space space, std::size_t n, std::uint64_t seed)
        : space_(space), input_(Case::make_input(n, seed)), in_(space, input_), out_(space, n) {}

    const T* in() const { return in_.data(); }
    T* out() const { return out_.data(); }
    std::size_t size() const { return input_.size(); }
    const std::vector<T>& input() const { return input_; }

    template <class Work>
    ::testing::AssertionResult call(Work&& work) const {
        return call_lab(space_, work);
    }

    // Nothing written outside the output, and every output element right.
    ::testing::AssertionResult output_matches(ScanKind kind, std::size_t section_size, unsigned depth) const {
        if (auto guards = out_.guards_intact(); !guards) return guards;
        return scan_matches<Case>(input_, out_.read(), kind, section_size, depth);
    }

    // Every output element written, whatever its value. The checks of something other than the
    // values (races, the input left alone) judge a scan that ran to the end: a wrong value is the
    // correctness checks' finding, and a scan that stopped early leaves them nothing to judge.
    ::testing::AssertionResult output_written() const {
        if (auto guards = out_.guards_intact(); !guards) return guards;
        const std::vector<T> now = out_.read();
        for (std::size_t i = 0; i < now.size(); ++i) {
            if (holds_fill_pattern(now[i])) {
                return ::testing::AssertionFailure()
                       << "could not judge: output element " << i << " of " << now.size()
                       << " was never written, so the scan did not run to the end (the correctness checks say why)";
            }
        }
        return ::testing::AssertionSuccess();
    }

    ::testing::AssertionResult input_unmodified() const {
        const std::vector<T> now = in_.read();
        auto result = matches_reference(input_, now);
        if (!result) result << " (the scan modified its input)";
        return result;
    }

private:
    Space space_;
    std::vector<T> input_;
    TestArray<T> in_;
    TestArray<T> out_;
};

}  // namespace scanlab::grading
