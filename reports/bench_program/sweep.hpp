// The sweep of one bench program: every series at every size, for int32 and float32.
//
// For each point: the output is poisoned and the scan run once and compared with the host's
// reference (on the simulator, with its counters on during that run); at small n a run with
// the counting operator gives the operator applications; on a GPU the scan is then timed
// (measurement.hpp). Each point is printed as a JSON line as soon as it is measured.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "json_line.hpp"
#include "measurement.hpp"
#include "reference.hpp"
#include "series.hpp"
#include "scanlab/cuda_check.hpp"

#ifdef SCANLAB_SIM
#include "scanlab/sim/counters.hpp"
#endif

namespace scanlab::bench {

struct Options {
    unsigned min_log2 = 10, max_log2 = 30, log2_step = 1;
    std::vector<unsigned> sweep_log2{16, 20, 24, 28};  // sizes of the block-size sweeps (int32)
    unsigned count_max_log2 = 16;                       // counting runs up to this size
    SamplingPolicy gpu_policy;
    SamplingPolicy cpu_policy{1, 3, 20, 2000};
    bool float32 = true;     // float32 beside int32 (the simulator's counts are the same for both)
    bool plan_only = false;  // print how many points would be measured, measure nothing
};

#ifdef SCANLAB_SIM
inline constexpr bool kTimed = false;
// A device buffer costs the simulator four times its size beside it (its byte map and race
// shadow: common/sim/README.md, "Memory use"), so a scan's output is compared with the host's
// reference on the host, a chunk at a time, not with a device copy of the reference: at 2^28
// ints that copy and the kernel that reads it took 6 GiB.
inline constexpr bool kCompareOnDevice = false;
#else
inline constexpr bool kTimed = true;
inline constexpr bool kCompareOnDevice = true;
#endif

// The sizes (log2 n) of one series for one element type.
inline std::vector<unsigned> series_sizes(const SeriesInfo& info, const Options& options, bool is_int32) {
    std::vector<unsigned> sizes;
    if (!info.sweep.empty()) {
        if (!is_int32) return sizes;  // block-size sweeps: int32 only
        for (const unsigned s : options.sweep_log2) {
            if (s >= options.min_log2 && s <= options.max_log2 && s <= info.max_log2_n) sizes.push_back(s);
        }
        return sizes;
    }
    for (unsigned s = options.min_log2; s <= options.max_log2 && s <= info.max_log2_n; s += options.log2_step) {
        sizes.push_back(s);
    }
    return sizes;
}

inline const char* type_name(int*) { return "int32"; }
inline const char* type_name(float*) { return "float32"; }

inline JsonObject series_record(const SeriesInfo& info, const char* element_type) {
    JsonObject r;
    r.field("record", "series").field("id", info.id + "/" + element_type).string_or_null("lab", info.lab)
        .field("label", info.label).field("algorithm", info.algorithm).field("role", info.role)
        .field("where", info.where).field("element_type", element_type).field("operator", "plus")
        .field("scope", info.scope).count_or_null("block_size", info.block_size)
        .count_or_null("section_size", info.section_size).string_or_null("sweep", info.sweep);
    return r;
}

#ifdef SCANLAB_SIM
inline JsonObject counters_json(const scanlab::sim::Counters& c) {
    const auto shared = [&](auto member) { return (c.shared_loads.*member) + (c.shared_stores.*member); };
    const auto global = [&](auto member) { return (c.global_loads.*member) + (c.global_stores.*member); };
    using A = scanlab::sim::AccessCounters;
    return JsonObject()
        .field("bank_conflicts", c.bank_conflicts())
        .field("shared_requests", shared(&A::requests))
        .field("shared_wavefronts", shared(&A::transactions))
        .field("shared_ideal_wavefronts", shared(&A::ideal))
        .field("global_requests", global(&A::requests))
        .field("global_sectors", global(&A::transactions))
        .field("global_ideal_sectors", global(&A::ideal))
        .field("warp_intervals", c.warp_intervals)
        .field("divergent_warp_intervals", c.divergent_warp_intervals);
}
#endif

// Device or host buffers of one element type, sized for the largest n of the program.
template <class T>
class Buffers {
public:
    explicit Buffers(std::size_t capacity) : capacity_(capacity), host_in_(capacity) {
        fill_inputs(host_in_);
        SCANLAB_CUDA_CHECK(cudaMalloc(&in_, capacity * sizeof(T)));
        SCANLAB_CUDA_CHECK(cudaMalloc(&out_, capacity * sizeof(T)));
        if (kCompareOnDevice) SCANLAB_CUDA_CHECK(cudaMalloc(&expected_, capacity * sizeof(T)));
        SCANLAB_CUDA_CHECK(cudaMemcpy(in_, host_in_.data(), capacity * sizeof(T), cudaMemcpyHostToDevice));
    }
    ~Buffers() {
        cudaFree(in_);
        cudaFree(out_);
        if (expected_ != nullptr) cudaFree(expected_);
    }
    Buffers(const Buffers&) = delete;
    Buffers& operator=(const Buffers&) = delete;

    // Makes the expected output of `info` for its first n elements current (computed again
    // only when it changes: the host's reference at 2^30 takes seconds).
    void expect(const SeriesInfo& info, std::size_t n) {
        const auto key =
            std::make_tuple(info.reference, info.scope == "sections" ? info.section_size : 0u, n, info.input_offset);
        if (key == expected_key_) return;
        // A whole-array scan's sections are its own business: its result is the scan of everything.
        const unsigned sections = info.scope == "sections" ? info.section_size : 0;
        host_expected_ = expected_output(host_in_.data(), n, info.reference, sections, info.input_offset);
        if (kCompareOnDevice) {
            SCANLAB_CUDA_CHECK(cudaMemcpy(expected_, host_expected_.data(), host_expected_.size() * sizeof(T),
                                          cudaMemcpyHostToDevice));
        }
        expected_key_ = key;
    }

    const T* in(bool on_gpu) const { return on_gpu ? in_ : host_in_.data(); }
    T* out(bool on_gpu) {
        if (!on_gpu) host_out_.resize(capacity_);  // only programs with host series need it
        return on_gpu ? out_ : host_out_.data();
    }

    // A pattern no scan of these inputs produces, so that an unwritten element is a mismatch.
    void poison(std::size_t n, bool on_gpu) {
        constexpr int kPoisonByte = 0x7F;
        if (on_gpu) {
            SCANLAB_CUDA_CHECK(cudaMemset(out_, kPoisonByte, n * sizeof(T)));
        } else {
            std::memset(out(false), kPoisonByte, n * sizeof(T));
        }
    }

    bool output_matches(std::size_t n, bool on_gpu) {
        if (on_gpu && kCompareOnDevice) return count_mismatches(out_, expected_, n) == 0;
        if (!on_gpu) return std::equal(host_out_.begin(), host_out_.begin() + n, host_expected_.begin());
        std::vector<T> chunk(std::min(n, kCompareChunk));
        for (std::size_t begin = 0; begin < n; begin += chunk.size()) {
            const std::size_t count = std::min(chunk.size(), n - begin);
            SCANLAB_CUDA_CHECK(cudaMemcpy(chunk.data(), out_ + begin, count * sizeof(T), cudaMemcpyDeviceToHost));
            if (!std::equal(chunk.begin(), chunk.begin() + count, host_expected_.begin() + begin)) return false;
        }
        return true;
    }

private:
    static constexpr std::size_t kCompareChunk = std::size_t{1} << 20;  // elements copied back at a time

    std::size_t capacity_;
    std::vector<T> host_in_, host_out_, host_expected_;
    T* in_ = nullptr;
    T* out_ = nullptr;
    T* expected_ = nullptr;
    std::optional<std::tuple<Reference, unsigned, std::size_t, int>> expected_key_;
};

class Sweep {
public:
    Sweep(const SeriesList& list, const Options& options) : list_(list), options_(options) {}

    unsigned long long planned_points() const {
        unsigned long long points = 0;
        for (const Series& s : list_.all()) {
            points += series_sizes(s.info, options_, true).size();
            if (options_.float32) points += series_sizes(s.info, options_, false).size();
        }
        return points;
    }

    // Returns false when the device was left unusable (a kernel fault): later points would
    // all fail for that reason, so the program stops and says so.
    bool run() {
        return run_type<int>() && (!options_.float32 || run_type<float>());
    }

private:
    template <class T>
    bool run_type() {
        T* const tag = nullptr;
        const bool is_int32 = std::is_same_v<T, int>;
        unsigned largest = 0;
        for (const Series& s : list_.all()) {
            for (const unsigned l : series_sizes(s.info, options_, is_int32)) largest = std::max(largest, l);
        }
        if (largest == 0) return true;
        Buffers<T> buffers(std::size_t{1} << largest);
        GpuTimer timer;
        for (const Series& s : list_.all()) {
            const std::vector<unsigned> sizes = series_sizes(s.info, options_, is_int32);
            if (sizes.empty()) continue;
            series_record(s.info, type_name(tag)).print_line();
            buffers.expect(s.info, std::size_t{1} << sizes.back());
            for (const unsigned l : sizes) {
                const std::size_t n = std::size_t{1} << l;
                try {
                    measure_point<T>(s, n, buffers, timer).print_line();
                } catch (const std::exception& e) {
                    JsonObject().field("record", "error").field("series", s.info.id + "/" + type_name(tag))
                        .field("n", static_cast<unsigned long long>(n)).field("message", e.what()).print_line();
                    if (cudaDeviceSynchronize() != cudaSuccess) return false;
                }
            }
        }
        return true;
    }

    template <class T>
    JsonObject measure_point(const Series& s, std::size_t n, Buffers<T>& buffers, GpuTimer& timer) {
        T* const tag = nullptr;
        const bool on_gpu = s.info.where == "gpu";
        const auto& call = s.plain<T>();
        const T* in = buffers.in(on_gpu);
        T* out = buffers.out(on_gpu);
        const unsigned long long bytes = 2ull * n * sizeof(T);
        JsonObject point;
        point.field("record", "point").field("series", s.info.id + "/" + type_name(tag))
            .field("n", static_cast<unsigned long long>(n)).field("bytes", bytes);

        // Correctness (and, on the simulator, the counters of that same run).
        buffers.poison(n, on_gpu);
#ifdef SCANLAB_SIM
        scanlab::sim::set_counting(on_gpu);
        scanlab::sim::take_counters();
#endif
        call(in, out, n, Plus<T>{});
        SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
#ifdef SCANLAB_SIM
        const scanlab::sim::Counters counters = scanlab::sim::take_counters();
        scanlab::sim::set_counting(false);
#endif
        const bool correct = buffers.output_matches(n, on_gpu);

        if constexpr (kTimed) {
            const auto run = [&] { call(in, out, n, Plus<T>{}); };
            const Summary t = on_gpu ? timer.time(options_.gpu_policy, run) : time_on_cpu(options_.cpu_policy, run);
            point.field("time_ms", t.json()).field("gb_per_s", static_cast<double>(bytes) / (t.median * 1e6));
        }
        point.field("correct", correct);

        if (n <= (std::size_t{1} << options_.count_max_log2) && (s.info.counts_on_gpu || !on_gpu)) {
            point.field("operator_applications", count_applications<T>(s, in, out, n, on_gpu));
        } else {
            point.null("operator_applications");
        }
#ifdef SCANLAB_SIM
        if (on_gpu) {
            point.field("counters", counters_json(counters));
        } else {
            point.null("counters");
        }
#else
        point.null("counters");
#endif
        return point;
    }

    template <class T>
    unsigned long long count_applications(const Series& s, const T* in, T* out, std::size_t n, bool on_gpu) {
        unsigned long long* counter = nullptr;
        unsigned long long count = 0;
        if (on_gpu) {
            SCANLAB_CUDA_CHECK(cudaMalloc(&counter, sizeof(*counter)));
            SCANLAB_CUDA_CHECK(cudaMemset(counter, 0, sizeof(*counter)));
            s.counted<T>()(in, out, n, CountedPlus<T>(Plus<T>{}, counter));
            SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
            SCANLAB_CUDA_CHECK(cudaMemcpy(&count, counter, sizeof(count), cudaMemcpyDeviceToHost));
            SCANLAB_CUDA_CHECK(cudaFree(counter));
        } else {
            s.counted<T>()(in, out, n, CountedPlus<T>(Plus<T>{}, &count));
        }
        return count;
    }

    const SeriesList& list_;
    const Options& options_;
};

}  // namespace scanlab::bench
