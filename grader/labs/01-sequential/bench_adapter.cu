// Lab 01 in reports/bench: the sequential scan and the multithreaded CPU scan (one thread per
// hardware thread of the machine), the baselines every GPU lab is compared with.
#include SCANLAB_LAB_SOURCE

#include <algorithm>
#include <string>
#include <thread>

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    SeriesInfo sequential = lab_series("01-sequential", "sequential_inclusive_scan", "01 sequential (1 CPU thread)",
                                       "sequential", "whole-array", 0, 0);
    SeriesInfo parallel = lab_series("01-sequential", "parallel_cpu_inclusive_scan",
                                     "01 parallel CPU (" + std::to_string(threads) + " threads)", "cpu-parallel",
                                     "whole-array", 0, 0);
    for (SeriesInfo* info : {&sequential, &parallel}) {
        info->role = "baseline";
        info->where = "cpu";
    }
    list.add(sequential, [](auto in, auto out, std::size_t n, auto op) { sequential_inclusive_scan(in, out, n, op); });
    list.add(parallel, [threads](auto in, auto out, std::size_t n, auto op) {
        parallel_cpu_inclusive_scan(in, out, n, op, threads);
    });
}
