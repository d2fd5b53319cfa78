// Lab 09 on a GPU: the decoupled look-back scan against cub::DeviceScan::InclusiveSum and a
// device-to-device copy of the same bytes, in one run, timed as reports/bench times (its
// GpuTimer: warm-up calls, the L2 cache flushed before each sample, CUDA events; the median
// and the relative interquartile range as the noise), at least 30 samples a point. Reported:
// the median, its throughput (bytes read and written), the noise, the ratios to CUB and to the
// copy. Temporary storage is allocated outside the timed region, for CUB and the lab alike.
// Every timed output is checked against CUB's.
//
// Built by the cuda backend as lab09_tuning (reports/lab_tuning/README.md; a benchmark, not a
// test: run it by hand).
//
//   lab09_tuning rows         the tuned policy at 2^20 ... 2^30, int32, float32, int64, double
//   lab09_tuning quick        the tuned policy at 2^20, 2^24 and 2^28, int32, int64, double
//   lab09_tuning candidates   the policies that came out best, at the sizes of `rows`
//   lab09_tuning sweep        policies (threads x items per thread x back-off), 4 and 8 bytes
//   lab09_tuning ticket       smaller tiles at 2^28, where the costs of a tile beyond its bytes
//                             (the ticket, the barriers, the look-back) weigh most
#include SCANLAB_LAB_SOURCE

#include <cub/device/device_scan.cuh>

#include "measurement.hpp"
#include "scanlab/operators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using scanlab::bench::GpuTimer;
using Timing = scanlab::bench::Summary;

// At least 30 samples of every point, as many as fit in 0.4 s up to 50.
scanlab::bench::SamplingPolicy sampling() {
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

double gbps(std::size_t bytes, double ms) { return bytes / (ms * 1e6); }

void print_row(const char* type, std::size_t n, const char* series, Timing t, std::size_t bytes, double cub_ms,
               double copy_ms) {
    std::printf("%-8s 2^%-3d %-34s %9.4f ms  noise %5.2f%%  %7.1f GB/s  %5.3fx CUB  %5.1f%% of copy\n", type,
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

template <class Policy, class T>
Timing measure_lab(GpuTimer& timer, Arrays<T>& arrays, bool* right) {
    std::size_t bytes = 0;
    decoupled_lookback_scan<Policy>(nullptr, bytes, arrays.d_in(), arrays.d_out(), arrays.n, scanlab::Plus<T>{});
    DeviceBuffer storage(bytes);
    SCANLAB_CUDA_CHECK(cudaMemset(arrays.out.p, 0, arrays.n * sizeof(T)));
    const Timing t = timer.time(sampling(), [&] {
        decoupled_lookback_scan<Policy>(storage.p, bytes, arrays.d_in(), arrays.d_out(), arrays.n, scanlab::Plus<T>{});
    });
    *right = same_output(arrays.d_out(), arrays.d_reference(), arrays.n);
    return t;
}

template <class T, class... Policies>
void compare(GpuTimer& timer, std::size_t n, bool print_baselines) {
    Arrays<T> arrays(n);
    const Baselines<T> base = measure_baselines(timer, arrays);
    const std::size_t bytes = 2 * n * sizeof(T);
    if (print_baselines) {
        print_row(type_name<T>(), n, "cub::DeviceScan::InclusiveSum", base.cub, bytes, base.cub.median, base.copy.median);
        print_row(type_name<T>(), n, "copy", base.copy, bytes, base.cub.median, base.copy.median);
    }
    auto one = [&](auto policy_tag) {
        using Policy = typename decltype(policy_tag)::type;
        bool right = false;
        const Timing t = measure_lab<Policy>(timer, arrays, &right);
        char name[96];
        std::snprintf(name, sizeof name, "lab 09 <%u x %u, %u ns>%s", Policy::kThreads, Policy::kItemsPerThread,
                      Policy::kBackoffNs, right ? "" : " WRONG");
        print_row(type_name<T>(), n, name, t, bytes, base.cub.median, base.copy.median);
    };
    (one(PolicyTag<Policies>{}), ...);
    std::fflush(stdout);
}

template <class T, class... Policies>
void rows(GpuTimer& timer) {
    for (unsigned log2_n = 20; log2_n <= 30; log2_n += 2) compare<T, Policies...>(timer, std::size_t{1} << log2_n, true);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string what = argc > 1 ? argv[1] : "rows";
    cudaDeviceProp properties{};
    SCANLAB_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
    std::printf("%s, %d SMs, CUDA runtime %d, CUB %d\n", properties.name, properties.multiProcessorCount, CUDART_VERSION,
                CUB_VERSION);
    GpuTimer timer;
    if (what == "rows") {
        rows<int, TunedPolicy<int>>(timer);
        rows<float, TunedPolicy<float>>(timer);
        rows<long long, TunedPolicy<long long>>(timer);
        rows<double, TunedPolicy<double>>(timer);
    } else if (what == "quick") {
        for (const unsigned log2_n : {20u, 24u, 28u}) {
            compare<int, TunedPolicy<int>>(timer, std::size_t{1} << log2_n, true);
            compare<long long, TunedPolicy<long long>, ScanPolicy<512, 19, 100>>(timer, std::size_t{1} << log2_n, true);
            compare<double, TunedPolicy<double>>(timer, std::size_t{1} << log2_n, true);
        }
    } else if (what == "candidates") {
        rows<int, ScanPolicy<512, 39, 0>, ScanPolicy<256, 39, 0>, ScanPolicy<384, 31, 0>>(timer);
        rows<double, ScanPolicy<256, 39, 0>, ScanPolicy<512, 19, 0>, ScanPolicy<256, 31, 0>, ScanPolicy<256, 39, 100>>(timer);
    } else if (what == "sweep") {
        for (const unsigned log2_n : {22u, 24u, 28u}) {
            compare<int, ScanPolicy<512, 23, 0>, ScanPolicy<512, 31, 0>, ScanPolicy<512, 39, 0>, ScanPolicy<1024, 23, 0>,
                    ScanPolicy<256, 39, 0>, ScanPolicy<384, 31, 0>, ScanPolicy<256, 23, 0>>(timer, std::size_t{1} << log2_n, true);
        }
        for (const unsigned log2_n : {22u, 28u}) {
            compare<double, ScanPolicy<256, 19, 0>, ScanPolicy<256, 27, 0>, ScanPolicy<512, 19, 0>, ScanPolicy<512, 23, 0>,
                    ScanPolicy<256, 39, 0>>(timer, std::size_t{1} << log2_n, true);
        }
    } else if (what == "ticket") {
        compare<int, ScanPolicy<256, 23, 0>, ScanPolicy<512, 23, 0>>(timer, std::size_t{1} << 28, true);
        compare<double, ScanPolicy<256, 19, 0>>(timer, std::size_t{1} << 28, true);
    } else {
        std::fprintf(stderr, "usage: %s rows|quick|candidates|sweep|ticket\n", argv[0]);
        return 2;
    }
    return 0;
}
