// The performance check of the whole-array labs (category `performance`, graded on a GPU only):
// the submission's scan of a large array against the reference solution's and CUB's, all three
// timed in the same test, interleaved, by reports/bench's method (reports/METHOD.md: the L2
// cache flushed before each sample, CUDA events, the median).
//
// It records what it measured ("0.93x the reference, 0.88x CUB"), which the grader shows
// beside pass or fail, and passes when the submission reaches kMinimumShareOfReference of the
// reference's throughput. CUB is shown, not graded: the chapter's algorithms are not CUB's.
//
// The reference solution is compiled into the same test program in a namespace of its own
// (performance_reference.cu of the lab's grader folder, built on the cuda backend where the kit
// has its solutions; grader/cmake/LabTests.cmake). A student's copy of the kit (grader/release)
// has no solutions: there the check times the submission against CUB alone, records that, and
// skips, saying that the comparison with the reference and its points are the instructor's
// grading; the grader shows the check as not graded there (grading.py). On the simulator
// nothing is timed: the grader shows the check as not graded and leaves its points out of the
// total.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <functional>

// 1 where the check can time: nvcc (CUB's InclusiveSum is built into the program there).
#if !defined(SCANLAB_SIM)
#define SCANLAB_PERFORMANCE_TIMED 1
#else
#define SCANLAB_PERFORMANCE_TIMED 0
#endif

// The reference solution's scan as the check calls it, where the kit's reference solution is built
// into the program (the instructor's copy); an empty IntSumScan in a student's copy, where the
// reference does not exist and its call is never compiled:
//   expect_performance(<submission's scan>, SCANLAB_REFERENCE_SCAN(<a lambda calling the reference>));
#if defined(SCANLAB_HAS_REFERENCE_SOLUTION)
#define SCANLAB_REFERENCE_SCAN(...) ::scanlab::grading::IntSumScan(__VA_ARGS__)
#else
#define SCANLAB_REFERENCE_SCAN(...) ::scanlab::grading::IntSumScan()
#endif

#if SCANLAB_PERFORMANCE_TIMED
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "efficiency_checks.hpp"  // record_measurement
#include "measurement.hpp"        // reports/bench's GPU timer
#include "scanlab/cuda_check.hpp"
#endif

namespace scanlab::grading {

// A scan of n int32 with `+`, as the check calls each contender: (d_in, d_out, n).
using IntSumScan = std::function<void(const int* d_in, int* d_out, std::size_t n)>;

// cub::DeviceScan::InclusiveSum, its temporary storage kept between calls (performance_baselines.cu).
void cub_inclusive_sum(const int* d_in, int* d_out, std::size_t n);

// 2^27 int32: 512 MiB read and 512 MiB written, ten times an H100's L2 cache, so the time is
// set by memory bandwidth as at any larger n, while a slow single-pass scan still takes
// milliseconds, not seconds.
inline constexpr std::size_t kPerformanceN = std::size_t{1} << 27;
// The submission passes at this fraction of the reference's throughput or more: room for the
// noise of a shared machine and for a different but sound design, none for a scan that is
// twice as slow.
inline constexpr double kMinimumShareOfReference = 0.8;
// Rounds of (submission, reference, CUB), each timed by the sampling policy below; a contender's
// time is the median of its rounds' medians, so that a drift of the clocks hits all three.
inline constexpr int kRounds = 3;

#if SCANLAB_PERFORMANCE_TIMED

inline std::string times(double ratio) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.2fx", ratio);
    return text;
}

inline std::string power_of_two(std::size_t n) {
    int log2 = 0;
    while ((std::size_t{1} << (log2 + 1)) <= n) ++log2;
    return (std::size_t{1} << log2) == n ? "2^" + std::to_string(log2) : std::to_string(n);
}

inline std::string milliseconds(double ms) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.3f ms", ms);
    return text;
}

// Inputs in [-8, 8] (as reports/bench's): their prefix sums stay far inside int32.
inline std::vector<int> performance_input(std::size_t n) {
    std::vector<int> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<int>((i * 2654435761u) % 17) - 8;
    return values;
}

class DeviceInts {
public:
    explicit DeviceInts(std::size_t n) { SCANLAB_CUDA_CHECK(cudaMalloc(&data_, n * sizeof(int))); }
    ~DeviceInts() { cudaFree(data_); }
    DeviceInts(const DeviceInts&) = delete;
    DeviceInts& operator=(const DeviceInts&) = delete;
    int* get() const { return data_; }

private:
    int* data_ = nullptr;
};

inline std::vector<int> to_host(const int* d_values, std::size_t n) {
    std::vector<int> values(n);
    SCANLAB_CUDA_CHECK(cudaMemcpy(values.data(), d_values, n * sizeof(int), cudaMemcpyDeviceToHost));
    return values;
}

// The median time of one contender's call, after one untimed run whose result must be CUB's.
struct Contender {
    const char* name;
    IntSumScan scan;
    std::vector<double> round_medians;

    double median_ms() const {
        std::vector<double> sorted = round_medians;
        std::sort(sorted.begin(), sorted.end());
        return sorted[sorted.size() / 2];
    }
};

// Where the kit has no reference solution (an empty `reference`: a student's copy), the submission
// is timed against CUB alone, and the test skips: the check is the instructor's to grade.
inline constexpr const char* kReferenceIsTheInstructors =
    "not graded in this copy of the kit: the reference solution is the instructor's (solutions/ is not part of "
    "the student repository), and so are the comparison with it and the check's points; timed here against "
    "CUB's InclusiveSum alone";

inline void expect_performance(const IntSumScan& submission, const IntSumScan& reference,
                               std::size_t n = kPerformanceN) {
    const std::vector<int> input = performance_input(n);
    DeviceInts d_in(n), d_out(n);
    SCANLAB_CUDA_CHECK(cudaMemcpy(d_in.get(), input.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    const bool with_reference = static_cast<bool>(reference);
    std::vector<Contender> contenders = {{"the submission", submission, {}}};
    if (with_reference) contenders.push_back({"the reference", reference, {}});
    contenders.push_back({"CUB", [](const int* in, int* out, std::size_t m) { cub_inclusive_sum(in, out, m); }, {}});
    // Untimed runs: each result must be CUB's (a fast wrong scan earns nothing), and CUB's
    // temporary storage is allocated before any timing.
    cub_inclusive_sum(d_in.get(), d_out.get(), n);
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<int> expected = to_host(d_out.get(), n);
    for (const Contender& c : contenders) {
        SCANLAB_CUDA_CHECK(cudaMemset(d_out.get(), 0xA5, n * sizeof(int)));
        c.scan(d_in.get(), d_out.get(), n);
        SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
        ASSERT_TRUE(to_host(d_out.get(), n) == expected)
            << c.name << "'s inclusive sum of n = " << n << " int32 differs from cub::DeviceScan::InclusiveSum's: "
            << "a wrong result is not timed (the correctness checks say where it goes wrong)";
    }

    scanlab::bench::SamplingPolicy policy;
    policy.warmup_runs = 1;
    policy.min_samples = 5;
    policy.max_samples = 15;
    policy.budget_ms = 100;
    scanlab::bench::GpuTimer timer;
    for (int round = 0; round < kRounds; ++round) {
        for (Contender& c : contenders) {
            c.round_medians.push_back(timer.time(policy, [&] { c.scan(d_in.get(), d_out.get(), n); }).median);
        }
    }
    const double mine = contenders.front().median_ms(), cub = contenders.back().median_ms();
    const double of_cub = cub / mine;
    if (!with_reference) {
        record_measurement(times(of_cub) + " CUB (n = " + power_of_two(n) + " int32: " + milliseconds(mine) +
                           "; CUB InclusiveSum " + milliseconds(cub) + ")");
        GTEST_SKIP() << kReferenceIsTheInstructors;
    }
    const double theirs = contenders[1].median_ms();
    const double of_reference = theirs / mine;
    record_measurement(times(of_reference) + " the reference, " + times(of_cub) + " CUB (n = " + power_of_two(n) + " int32: " +
                       milliseconds(mine) + "; reference " + milliseconds(theirs) + ", CUB InclusiveSum " +
                       milliseconds(cub) + ")");
    EXPECT_TRUE(::testing::AssertionResult(of_reference >= kMinimumShareOfReference)
        << "the scan of n = " << n << " int32 took " << milliseconds(mine) << ", the reference solution's "
        << milliseconds(theirs) << ": " << times(of_reference) << " its throughput, where at least "
        << times(kMinimumShareOfReference) << " is needed");
}

#endif

}  // namespace scanlab::grading

// On the simulator nothing is timed (#if !SCANLAB_PERFORMANCE_TIMED): the test says why and is
// skipped, and the grader shows a performance check as not graded there (a skipped test never
// passes a check).
#define SCANLAB_SKIP_PERFORMANCE() \
    GTEST_SKIP() << "performance is measured on a GPU only (--backend cuda); not graded on the simulator"
