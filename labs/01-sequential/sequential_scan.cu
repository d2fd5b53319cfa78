// Lab 01: sequential scans and a multithreaded CPU scan.
//
// Conventions (see README.md):
//   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//   - op.identity() is the value that changes nothing: op(op.identity(), x) == x.
//   - Read `in`, write `out`; do not modify the input.

#ifndef SCANLAB_LAB_01_SEQUENTIAL_CU_INCLUDED  // later labs include this file, perhaps more than once
#define SCANLAB_LAB_01_SEQUENTIAL_CU_INCLUDED

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

// out[i] = in[0] op in[1] op ... op in[i], for every i < n.
template <class T, class Op>
void sequential_inclusive_scan(const T* in, T* out, std::size_t n, Op op) {
    // TODO: compute the inclusive scan in one pass over the input, applying op exactly n - 1
    //       times (n == 0 is allowed and writes nothing).
}

// out[0] = op.identity(), out[i] = in[0] op ... op in[i-1], for every 0 < i < n.
template <class T, class Op>
void sequential_exclusive_scan(const T* in, T* out, std::size_t n, Op op) {
    // TODO: compute the exclusive scan in one pass, applying op at most n - 1 times.
}

// The same result as sequential_inclusive_scan, computed by `num_threads` std::threads with
// the two-pass block method.
template <class T, class Op>
void parallel_cpu_inclusive_scan(const T* in, T* out, std::size_t n, Op op, unsigned num_threads) {
    // TODO 1: split [0, n) into at most num_threads contiguous chunks (num_threads may exceed n)
    //         and let one thread scan each chunk independently.
    // TODO 2: from the chunk totals, compute for each chunk the combination of everything
    //         before it (its carry-in).
    // TODO 3: in parallel again, combine each chunk's carry-in into its elements.
    // Join every thread before returning. Apply op at most 2(n - 1) times in all.
}

#endif  // SCANLAB_LAB_01_SEQUENTIAL_CU_INCLUDED
