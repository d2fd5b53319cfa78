// What the lab tuning programs share (README.md): the inputs, the check against CUB, the timing
// of the baselines (CUB's InclusiveSum and the copy) and the rows they print.
#pragma once

#include <cub/device/device_scan.cuh>

#include "measurement.hpp"

#include <cmath>
#include <cstdio>
#include <type_traits>
#include <vector>

namespace scanlab::lab_tuning {

using scanlab::bench::GpuTimer;
using Timing = scanlab::bench::Summary;

// At least 30 samples of every point, as many as fit in 0.4 s up to 50.
inline scanlab::bench::SamplingPolicy sampling() {
    scanlab::bench::SamplingPolicy policy;
    policy.min_samples = 30;
    return policy;
}

template <class T>
const char* type_name() {
    if constexpr (std::is_same_v<T, int>) return "int32";
    if constexpr (std::is_same_v<T, float>) return "float32";
    if constexpr (std::is_same_v<T, long long>) return "int64";
    return "double";
}

// Small values, so that floating-point sums stay close to CUB's.
template <class T>
std::vector<T> make_input(std::size_t n) {
    std::vector<T> values(n);
    unsigned x = 12345;
    for (auto& v : values) {
        x = x * 1664525u + 1013904223u;
        v = static_cast<T>((x >> 16) % 8);
    }
    return values;
}

template <class T>
bool same_output(const T* a, const T* b, std::size_t n) {
    std::vector<T> ha(n), hb(n);
    SCANLAB_CUDA_CHECK(cudaMemcpy(ha.data(), a, n * sizeof(T), cudaMemcpyDeviceToHost));
    SCANLAB_CUDA_CHECK(cudaMemcpy(hb.data(), b, n * sizeof(T), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < n; ++i) {
        const double x = static_cast<double>(ha[i]), y = static_cast<double>(hb[i]);
        if (std::fabs(x - y) > 1e-5 * std::fabs(y) + 1e-6) {
            std::printf("MISMATCH at %zu: %.17g vs CUB %.17g\n", i, x, y);
            return false;
        }
    }
    return true;
}

struct DeviceBuffer {
    void* p = nullptr;
    explicit DeviceBuffer(std::size_t bytes) { SCANLAB_CUDA_CHECK(cudaMalloc(&p, bytes == 0 ? 1 : bytes)); }
    ~DeviceBuffer() { cudaFree(p); }
};

template <class T>
struct Arrays {
    std::size_t n;
    DeviceBuffer in, out, reference;
    explicit Arrays(std::size_t count) : n(count), in(n * sizeof(T)), out(n * sizeof(T)), reference(n * sizeof(T)) {
        const std::vector<T> values = make_input<T>(n);
        SCANLAB_CUDA_CHECK(cudaMemcpy(in.p, values.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    }
    const T* d_in() const { return static_cast<const T*>(in.p); }
    T* d_out() const { return static_cast<T*>(out.p); }
    T* d_reference() const { return static_cast<T*>(reference.p); }
};

template <class Policy>
struct PolicyTag {
    using type = Policy;
};

inline double gbps(std::size_t bytes, double ms) { return bytes / (ms * 1e6); }

inline void print_row(const char* type, std::size_t n, const char* series, Timing t, std::size_t bytes, double cub_ms,
               double copy_ms) {
    std::printf("%-8s 2^%-3d %-40s %9.4f ms  noise %5.2f%%  %7.1f GB/s  %5.3fx CUB  %5.1f%% of copy\n", type,
                static_cast<int>(std::log2(static_cast<double>(n))), series, t.median, 100 * t.noise,
                gbps(bytes, t.median), cub_ms / t.median, 100 * copy_ms / t.median);
}

// The baselines of one (type, size): CUB's InclusiveSum (its output is the reference) and the copy.
template <class T>
struct Baselines {
    Timing cub, copy;
};

template <class T>
Baselines<T> measure_baselines(GpuTimer& timer, Arrays<T>& arrays) {
    std::size_t cub_bytes = 0;
    SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, arrays.d_in(), arrays.d_reference(), arrays.n));
    DeviceBuffer cub_storage(cub_bytes);
    Baselines<T> result;
    result.cub = timer.time(sampling(), [&] {
        SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(cub_storage.p, cub_bytes, arrays.d_in(), arrays.d_reference(), arrays.n));
    });
    result.copy = timer.time(sampling(), [&] {
        SCANLAB_CUDA_CHECK(cudaMemcpyAsync(arrays.d_out(), arrays.d_in(), arrays.n * sizeof(T), cudaMemcpyDeviceToDevice));
    });
    return result;
}

}  // namespace scanlab::lab_tuning
