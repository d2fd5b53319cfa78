// A bench program: the series of one lab (its adapter) or of the baselines, swept over the
// sizes and types the options name, one JSON line per record on stdout (reports/bench reads
// them and writes the results file).
//
//   labNN_bench [--sizes MIN:MAX[:STEP]] [--sweep-sizes A,B,...] [--count-max LOG2]
//               [--samples MIN:MAX] [--budget-ms MS] [--int32-only] [--plan]
//
// Sizes are log2 n. --plan prints the number of points and measures nothing.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "json_line.hpp"
#include "series.hpp"
#include "sweep.hpp"
#include "scanlab/cuda_check.hpp"

namespace {

using scanlab::bench::JsonObject;
using scanlab::bench::Options;

std::vector<unsigned> numbers(const std::string& text, char separator) {
    std::vector<unsigned> values;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, separator)) {
        std::size_t used = 0;
        const unsigned long value = std::stoul(item, &used);
        if (used != item.size()) throw std::invalid_argument("not a number: '" + item + "'");
        values.push_back(static_cast<unsigned>(value));
    }
    return values;
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--sizes") {
            const std::vector<unsigned> v = numbers(value(), ':');
            if (v.size() < 2 || v.size() > 3 || v[0] > v[1] || v[1] > 30 || (v.size() == 3 && v[2] == 0)) {
                throw std::invalid_argument("--sizes MIN:MAX[:STEP] with MIN <= MAX <= 30");
            }
            o.min_log2 = v[0];
            o.max_log2 = v[1];
            o.log2_step = v.size() == 3 ? v[2] : 1;
        } else if (arg == "--sweep-sizes") {
            o.sweep_log2 = numbers(value(), ',');
        } else if (arg == "--count-max") {
            o.count_max_log2 = numbers(value(), ',').at(0);
        } else if (arg == "--samples") {
            const std::vector<unsigned> v = numbers(value(), ':');
            if (v.size() != 2 || v[0] == 0 || v[0] > v[1]) throw std::invalid_argument("--samples MIN:MAX");
            o.gpu_policy.min_samples = static_cast<int>(v[0]);
            o.gpu_policy.max_samples = static_cast<int>(v[1]);
        } else if (arg == "--budget-ms") {
            o.gpu_policy.budget_ms = std::stod(value());
        } else if (arg == "--int32-only") {
            o.float32 = false;
        } else if (arg == "--plan") {
            o.plan_only = true;
        } else {
            throw std::invalid_argument("unknown option " + arg);
        }
    }
    return o;
}

#ifndef SCANLAB_SIM
void print_device_record() {
    int device = 0, sm_khz = 0, memory_khz = 0, runtime = 0, driver = 0;
    cudaDeviceProp prop{};
    SCANLAB_CUDA_CHECK(cudaGetDevice(&device));
    SCANLAB_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    SCANLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, device));
    SCANLAB_CUDA_CHECK(cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, device));
    SCANLAB_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    SCANLAB_CUDA_CHECK(cudaDriverGetVersion(&driver));
    const auto version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
    JsonObject()
        .field("record", "device")
        .field("gpu", prop.name)
        .field("sm_count", prop.multiProcessorCount)
        .field("l2_bytes", prop.l2CacheSize)
        .field("sm_clock_mhz", sm_khz / 1000)
        .field("memory_clock_mhz", memory_khz / 1000)
        .field("memory_bus_bits", prop.memoryBusWidth)
        .field("cuda_runtime", version(runtime))
        .field("cuda_driver", version(driver))
        .print_line();
}
#endif

}  // namespace

int main(int argc, char** argv) {
    Options options;
    try {
        options = parse(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
        return 2;
    }
    scanlab::bench::SeriesList list;
    scanlab::bench::register_series(list);
    scanlab::bench::Sweep sweep(list, options);
    JsonObject().field("record", "plan").field("points", sweep.planned_points()).print_line();
    if (options.plan_only) return 0;
    try {
#ifndef SCANLAB_SIM
        print_device_record();
#endif
        if (!sweep.run()) {
            std::fprintf(stderr, "%s: stopped: the device is unusable after an error (see the error record)\n", argv[0]);
            return 1;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
        return 1;
    }
    return 0;
}
