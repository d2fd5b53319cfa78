// Timing the way NVIDIA's nvbench does it (reports/METHOD.md): warm-up runs, then samples
// until both a minimum count and a time budget are reached (or a maximum count), each GPU
// sample between two CUDA events with the L2 cache flushed before it; the median, with the
// relative interquartile range as the noise.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "json_line.hpp"
#include "scanlab/cuda_check.hpp"

namespace scanlab::bench {

struct SamplingPolicy {
    int warmup_runs = 3;
    int min_samples = 10;
    int max_samples = 50;
    double budget_ms = 400;  // stop after min_samples once the samples add up to this
    // A slow point (a second per call) stops at this many samples once they add up to
    // kSlowBudgets budgets: its noise is small next to its time.
    int slow_min_samples = 3;
    static constexpr double kSlowBudgets = 5;
};

struct Summary {
    double median = 0, min = 0, max = 0, noise = 0;
    int samples = 0;

    JsonObject json() const {
        return JsonObject().field("median", median).field("min", min).field("max", max).field("noise", noise)
            .field("samples", samples);
    }
};

// Linear interpolation between order statistics, as numpy's default percentile.
inline double quantile(const std::vector<double>& sorted, double q) {
    const double at = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(at);
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (at - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

inline Summary summarize(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    Summary s;
    s.samples = static_cast<int>(ms.size());
    s.median = quantile(ms, 0.5);
    s.min = ms.front();
    s.max = ms.back();
    s.noise = s.median > 0 ? (quantile(ms, 0.75) - quantile(ms, 0.25)) / s.median : 0;
    return s;
}

// Calls `sample()` (which returns one sample in ms) as the policy says.
template <class Sample>
Summary sample_until_done(const SamplingPolicy& policy, Sample sample) {
    std::vector<double> ms;
    double total = 0;
    const auto done = [&] {
        const int count = static_cast<int>(ms.size());
        return count >= policy.max_samples || (count >= policy.min_samples && total >= policy.budget_ms) ||
               (count >= policy.slow_min_samples && total >= SamplingPolicy::kSlowBudgets * policy.budget_ms);
    };
    while (!done()) {
        ms.push_back(sample());
        total += ms.back();
    }
    return summarize(std::move(ms));
}

// Host code: steady_clock around each call.
template <class Run>
Summary time_on_cpu(const SamplingPolicy& policy, Run run) {
    for (int w = 0; w < policy.warmup_runs; ++w) run();
    return sample_until_done(policy, [&] {
        const auto start = std::chrono::steady_clock::now();
        run();
        const auto stop = std::chrono::steady_clock::now();
        return std::chrono::duration<double, std::milli>(stop - start).count();
    });
}

#ifdef SCANLAB_SIM
// The simulator's times say nothing about a GPU: on that backend nothing is timed (the sweep
// checks kTimed before it calls this).
class GpuTimer {
public:
    template <class Run>
    Summary time(const SamplingPolicy&, Run) {
        throw std::logic_error("the simulator backend times nothing");
    }
};
#else
// Device code: CUDA events on the default stream around each call, the L2 cache flushed
// before each sample by writing a buffer twice its size (as nvbench does), so that no sample
// finds the previous one's data in the cache.
class GpuTimer {
public:
    GpuTimer() {
        int device = 0, l2_bytes = 0;
        SCANLAB_CUDA_CHECK(cudaGetDevice(&device));
        SCANLAB_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
        flush_bytes_ = 2 * static_cast<std::size_t>(l2_bytes);
        SCANLAB_CUDA_CHECK(cudaMalloc(&flush_buffer_, flush_bytes_));
        SCANLAB_CUDA_CHECK(cudaEventCreate(&start_));
        SCANLAB_CUDA_CHECK(cudaEventCreate(&stop_));
    }
    ~GpuTimer() {
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
        cudaFree(flush_buffer_);
    }
    GpuTimer(const GpuTimer&) = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;

    template <class Run>
    Summary time(const SamplingPolicy& policy, Run run) {
        for (int w = 0; w < policy.warmup_runs; ++w) run();
        SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
        return sample_until_done(policy, [&] {
            SCANLAB_CUDA_CHECK(cudaMemsetAsync(flush_buffer_, 0, flush_bytes_));
            SCANLAB_CUDA_CHECK(cudaEventRecord(start_));
            run();
            SCANLAB_CUDA_CHECK(cudaEventRecord(stop_));
            SCANLAB_CUDA_CHECK(cudaEventSynchronize(stop_));
            float ms = 0;
            SCANLAB_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
            return static_cast<double>(ms);
        });
    }

private:
    void* flush_buffer_ = nullptr;
    std::size_t flush_bytes_ = 0;
    cudaEvent_t start_{}, stop_{};
};
#endif

}  // namespace scanlab::bench
