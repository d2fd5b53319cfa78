// Lab 01 in reports/bench: the sequential scan and the multithreaded CPU scan (one thread per
// hardware thread of the machine), the baselines every GPU lab is compared with.
#include SCANLAB_LAB_SOURCE

#include <string>
#include <thread>

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    SeriesInfo sequential;
    sequential.id = "01-sequential/sequential_inclusive_scan";
    sequential.lab = "01-sequential";
    sequential.label = "01 sequential (1 CPU thread)";
    sequential.algorithm = "sequential";
    sequential.role = "baseline";
    sequential.where = "cpu";
    list.add(sequential, [](auto in, auto out, std::size_t n, auto op) { sequential_inclusive_scan(in, out, n, op); });

    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    SeriesInfo parallel = sequential;
    parallel.id = "01-sequential/parallel_cpu_inclusive_scan";
    parallel.label = "01 parallel CPU (" + std::to_string(threads) + " threads)";
    parallel.algorithm = "cpu-parallel";
    list.add(parallel, [threads](auto in, auto out, std::size_t n, auto op) {
        parallel_cpu_inclusive_scan(in, out, n, op, threads);
    });
}
