// Lab 01's host entries, as the suite calls them, and the runs they are checked with.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "operation_counter.hpp"
#include "scan_cases.hpp"
#include "scan_run.hpp"

template <class T, class Op>
void sequential_inclusive_scan(const T* in, T* out, std::size_t n, Op op);
template <class T, class Op>
void sequential_exclusive_scan(const T* in, T* out, std::size_t n, Op op);
template <class T, class Op>
void parallel_cpu_inclusive_scan(const T* in, T* out, std::size_t n, Op op, unsigned num_threads);

namespace lab01 {

using namespace scanlab::grading;
using scanlab::ScanKind;

// Empty, single, tiny, not powers of two, and large enough that every thread gets work.
inline std::vector<std::size_t> sizes() { return {0, 1, 2, 3, 5, 7, 100, 1000, 4099, 65537}; }

// Thread counts of the multithreaded scan, including more threads than elements.
inline std::vector<unsigned> thread_counts() { return {1, 2, 3, 8}; }

// A scan algorithm of this lab: how to call it (with an operator) and what it computes.
// Every output is a sum along a chain of at most n - 1 additions (see scanlab/error_bound.hpp).
struct HostScan {
    std::string name;
    ScanKind kind;
    unsigned num_threads;  // 0: sequential
};

inline std::vector<HostScan> sequential_scans() {
    return {{"sequential inclusive", ScanKind::inclusive, 0}, {"sequential exclusive", ScanKind::exclusive, 0}};
}

inline std::vector<HostScan> parallel_scans() {
    std::vector<HostScan> scans;
    for (const unsigned threads : thread_counts()) {
        scans.push_back({"parallel CPU, " + std::to_string(threads) + " thread(s)", ScanKind::inclusive, threads});
    }
    return scans;
}

template <class T, class Op>
void call(const HostScan& scan, const T* in, T* out, std::size_t n, Op op) {
    if (scan.num_threads != 0) {
        parallel_cpu_inclusive_scan(in, out, n, op, scan.num_threads);
    } else if (scan.kind == ScanKind::inclusive) {
        sequential_inclusive_scan(in, out, n, op);
    } else {
        sequential_exclusive_scan(in, out, n, op);
    }
}

inline unsigned depth(std::size_t n) { return n == 0 ? 0 : static_cast<unsigned>(n - 1); }

inline std::string describe(const HostScan& scan, std::size_t n) { return scan.name + ", n = " + std::to_string(n); }

}  // namespace lab01
