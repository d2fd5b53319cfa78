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

#include "scanlab/operators.hpp"
#include "tuning_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace scanlab::lab_tuning;

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
