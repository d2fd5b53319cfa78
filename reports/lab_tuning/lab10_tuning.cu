// Lab 10 on a GPU: the warp-specialized scan's pipelines (scan warps x reduce warps x items per
// thread x stages) against cub::DeviceScan::InclusiveSum and a device-to-device copy of the same
// bytes, in one run, timed as reports/bench times (its GpuTimer: warm-up calls, the L2 cache
// flushed before each sample, CUDA events; the median and the relative interquartile range as
// the noise), at least 30 samples a point. Every timed output is checked against CUB's.
// Policies whose ring does not fit in the shared memory a block may take are skipped, and said so.
//
// Built by the cuda backend as lab10_tuning (reports/lab_tuning/README.md; a benchmark, not a
// test: run it by hand).
//
//   lab10_tuning rows     the tuned policy (the one the host entry picks for this GPU) at
//                         2^16 ... 2^30, int32, float32, int64, double
//   lab10_tuning quick    the tuned policy at 2^24, 2^28 and 2^30 (int32), 2^28 (float32) and
//                         2^24 and 2^28 (double): one variant of the lab's file against another
//   lab10_tuning blocks   rings for two blocks per SM beside the tuned one, at 2^28 (int32, double)
//   lab10_tuning backoff  the tuned ring with sleeps of 50 to 800 ns between the look-back's polls
//   lab10_tuning sweep    rings of several depths and tile sizes at 2^24, 2^28 and 2^30 (int32)
//                         and at 2^24 and 2^28 (double); built with -DLAB10_TUNING_SWEEP=4 (or 8),
//                         the 4-byte (or 8-byte) half alone, which halves the build (0: no sweep,
//                         the quickest build, for `rows` and `quick`)
#include SCANLAB_LAB_SOURCE

#include "scanlab/operators.hpp"
#include "tuning_support.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace scanlab::lab_tuning;

struct TunedTag {};  // the host entry that picks its policy for the device

template <class T, class Scan>
Timing measure_lab(GpuTimer& timer, Arrays<T>& arrays, bool* right, Scan scan) {
    std::size_t bytes = 0;
    scan(nullptr, bytes);
    DeviceBuffer storage(bytes);
    SCANLAB_CUDA_CHECK(cudaMemset(arrays.out.p, 0xFF, arrays.n * sizeof(T)));
    const Timing t = timer.time(sampling(), [&] { scan(storage.p, bytes); });
    *right = same_output(arrays.d_out(), arrays.d_reference(), arrays.n);
    return t;
}

std::size_t shared_memory_limit() {
    int device = 0, limit = 0;
    SCANLAB_CUDA_CHECK(cudaGetDevice(&device));
    SCANLAB_CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    return static_cast<std::size_t>(limit);
}

template <class T, class... Tags>
void compare(GpuTimer& timer, std::size_t n) {
    Arrays<T> arrays(n);
    const Baselines<T> base = measure_baselines(timer, arrays);
    const std::size_t bytes = 2 * n * sizeof(T);
    print_row(type_name<T>(), n, "cub::DeviceScan::InclusiveSum", base.cub, bytes, base.cub.median, base.copy.median);
    print_row(type_name<T>(), n, "copy", base.copy, bytes, base.cub.median, base.copy.median);
    auto one = [&](auto tag) {
        using Tag = decltype(tag);
        char name[96];
        bool right = false;
        Timing t;
        if constexpr (std::is_same_v<Tag, TunedTag>) {
            t = measure_lab(timer, arrays, &right, [&](void* storage, std::size_t& storage_bytes) {
                warp_specialized_scan(storage, storage_bytes, arrays.d_in(), arrays.d_out(), arrays.n, scanlab::Plus<T>{});
            });
            std::snprintf(name, sizeof name, "lab 10 tuned%s", right ? "" : " WRONG");
        } else {
            using Policy = typename Tag::type;
            const std::size_t shared = sizeof(lab10::PipelineStorage<Policy, T>);
            char blocks[16] = "", sleep[24] = "";  // shown where they are not the tuned ring's
            if (Policy::kBlocksPerSm > 1) std::snprintf(blocks, sizeof blocks, ", %u/SM", Policy::kBlocksPerSm);
            if (Policy::kBackoffNs > 0) std::snprintf(sleep, sizeof sleep, ", sleep %u ns", Policy::kBackoffNs);
            std::snprintf(name, sizeof name, "lab 10 <%u/%u x %u, %u st, %zu KB%s%s>", Policy::kScanWarps, Policy::kReduceWarps,
                          Policy::kItemsPerThread, Policy::kStages, shared / 1024, blocks, sleep);
            if (shared > shared_memory_limit()) {
                std::printf("%-8s %-45s skipped: %zu bytes of shared memory, a block may take %zu\n", type_name<T>(), name,
                            shared, shared_memory_limit());
                return;
            }
            t = measure_lab(timer, arrays, &right, [&](void* storage, std::size_t& storage_bytes) {
                warp_specialized_scan<Policy>(storage, storage_bytes, arrays.d_in(), arrays.d_out(), arrays.n, scanlab::Plus<T>{});
            });
            if (!right) std::strncat(name, " WRONG", sizeof name - std::strlen(name) - 1);
        }
        print_row(type_name<T>(), n, name, t, bytes, base.cub.median, base.copy.median);
    };
    (one(Tags{}), ...);
    std::fflush(stdout);
}

//                                         scan, reduce, items, stages, blocks/SM, min tiles, back-off
template <unsigned S, unsigned R, unsigned I, unsigned St, unsigned B = 1>
using P = PolicyTag<lab10::PipelinePolicy<S, R, I, St, B, 0, 0>>;

// The tuned ring with another back-off between the look-back's polls (ns).
template <class T, unsigned BackoffNs>
using Backoff = PolicyTag<lab10::PipelinePolicy<8, 4, sizeof(T) <= 4 ? 31 : 15, 7, 1, 0, BackoffNs>>;

template <class T>
void rows(GpuTimer& timer) {
    for (unsigned log2_n = 16; log2_n <= 30; log2_n += 2) compare<T, TunedTag>(timer, std::size_t{1} << log2_n);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string what = argc > 1 ? argv[1] : "rows";
    cudaDeviceProp properties{};
    SCANLAB_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
    std::printf("%s, %d SMs, %zu bytes of shared memory a block may take, CUDA runtime %d, CUB %d\n", properties.name,
                properties.multiProcessorCount, shared_memory_limit(), CUDART_VERSION, CUB_VERSION);
    GpuTimer timer;
    if (what == "rows") {
        rows<int>(timer);
        rows<float>(timer);
        rows<long long>(timer);
        rows<double>(timer);
    } else if (what == "quick") {
        for (const unsigned log2_n : {24u, 28u, 30u}) compare<int, TunedTag>(timer, std::size_t{1} << log2_n);
        compare<float, TunedTag>(timer, std::size_t{1} << 28);
        for (const unsigned log2_n : {24u, 28u}) compare<double, TunedTag>(timer, std::size_t{1} << log2_n);
    } else if (what == "blocks") {
        compare<int, TunedTag, P<8, 4, 31, 3, 2>, P<8, 4, 27, 3, 2>, P<8, 4, 23, 4, 2>>(timer, std::size_t{1} << 28);
        compare<double, TunedTag, P<8, 4, 15, 3, 2>, P<8, 4, 11, 4, 2>>(timer, std::size_t{1} << 28);
    } else if (what == "backoff") {
        for (const unsigned log2_n : {24u, 28u}) {
            compare<int, TunedTag, Backoff<int, 50>, Backoff<int, 100>, Backoff<int, 200>, Backoff<int, 400>, Backoff<int, 800>>(
                timer, std::size_t{1} << log2_n);
        }
        compare<double, TunedTag, Backoff<double, 100>, Backoff<double, 200>, Backoff<double, 400>, Backoff<double, 800>>(
            timer, std::size_t{1} << 28);
    } else if (what == "sweep") {
#if !defined(LAB10_TUNING_SWEEP) || LAB10_TUNING_SWEEP == 4
        for (const unsigned log2_n : {24u, 28u, 30u}) {
            compare<int, TunedTag, P<8, 4, 27, 8>, P<8, 4, 23, 9>, P<12, 4, 21, 7>>(timer, std::size_t{1} << log2_n);
        }
#endif
#if !defined(LAB10_TUNING_SWEEP) || LAB10_TUNING_SWEEP == 8
        for (const unsigned log2_n : {24u, 28u}) {
            compare<double, TunedTag, P<8, 4, 13, 8>, P<8, 4, 11, 10>>(timer, std::size_t{1} << log2_n);
        }
#endif
    } else {
        std::fprintf(stderr, "usage: %s rows|quick|blocks|backoff|sweep\n", argv[0]);
        return 2;
    }
    return 0;
}
