// BEGIN SOLUTION
// Lab 01 reference solution: the sequential scans every parallel scan is measured against,
// and a multithreaded CPU scan (the two-pass block method).
//
// All functions accept out == in (an in-place scan): every input element is read before the
// output element at the same index is written.
// END SOLUTION
// BEGIN PROMPT
//| // Lab 01: sequential scans and a multithreaded CPU scan.
//| //
//| // Conventions (see README.md):
//| //   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//| //   - op.identity() is the value that changes nothing: op(op.identity(), x) == x.
//| //   - Read `in`, write `out`; do not modify the input.
// END PROMPT

#ifndef SCANLAB_LAB_01_SEQUENTIAL_CU_INCLUDED  // later labs include this file, perhaps more than once
#define SCANLAB_LAB_01_SEQUENTIAL_CU_INCLUDED

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

// BEGIN SOLUTION
// out[i] = in[0] op in[1] op ... op in[i]. Applies op exactly n - 1 times, the minimum.
// END SOLUTION
// BEGIN PROMPT
//| // out[i] = in[0] op in[1] op ... op in[i], for every i < n.
// END PROMPT
template <class T, class Op>
void sequential_inclusive_scan(const T* in, T* out, std::size_t n, Op op) {
    // BEGIN SOLUTION
    if (n == 0) return;  //@ inclusive-empty
    T running = in[0];  // kept in a register: one load, one op and one store per element  //@ inclusive-first
    out[0] = running;
    for (std::size_t i = 1; i < n; ++i) {  //@ inclusive-loop
        running = op(running, in[i]);  //@ inclusive-combine
        out[i] = running;
    }
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO: compute the inclusive scan in one pass over the input, applying op exactly n - 1
    //| //       times (n == 0 is allowed and writes nothing).
    // END PROMPT
}

// BEGIN SOLUTION
// out[0] = identity, out[i] = in[0] op ... op in[i-1]. Applies op n - 1 times: the last input
// contributes to no output, so it is never combined.
// END SOLUTION
// BEGIN PROMPT
//| // out[0] = op.identity(), out[i] = in[0] op ... op in[i-1], for every 0 < i < n.
// END PROMPT
template <class T, class Op>
void sequential_exclusive_scan(const T* in, T* out, std::size_t n, Op op) {
    // BEGIN SOLUTION
    if (n == 0) return;  //@ exclusive-empty
    T running = op.identity();  //@ exclusive-start
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const T x = in[i];  // read before out[i] is written, in case out == in
        out[i] = running;  //@ exclusive-store
        running = op(running, x);
    }
    out[n - 1] = running;  //@ exclusive-last
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO: compute the exclusive scan in one pass, applying op at most n - 1 times.
    // END PROMPT
}

// BEGIN SOLUTION
namespace parallel_cpu {

// [begin, end) of chunk `c` when n elements are dealt to `chunks` workers: the first
// n % chunks chunks get one element more, so sizes differ by at most one.
struct Chunk {
    std::size_t begin;
    std::size_t end;
};

inline Chunk chunk_of(std::size_t c, std::size_t n, std::size_t chunks) {
    const std::size_t base = n / chunks;
    const std::size_t extra = n % chunks;
    const std::size_t begin = c * base + std::min(c, extra);
    return Chunk{begin, begin + base + (c < extra ? 1 : 0)};  //@ chunk-end
}

// Runs work(c) for c in [0, count): c = 0 on the calling thread, the others on new threads.
template <class Work>
void run_on_threads(std::size_t count, Work work) {
    std::vector<std::thread> workers;
    workers.reserve(count - 1);
    for (std::size_t c = 1; c < count; ++c) workers.emplace_back(work, c);
    work(std::size_t{0});
    for (std::thread& worker : workers) worker.join();
}

}  // namespace parallel_cpu

// The two-pass block method:
//   1. every thread scans its own chunk (in parallel);
//   2. one thread scans the chunk totals into carries (chunks - 1 values: cheap);
//   3. every thread but the first combines its carry into its chunk (in parallel).
// Work: at most 2(n - 1) applications, against n - 1 sequentially, so the speedup with p
// threads is at most about p/2 unless memory bandwidth is the limit (it usually is).
// END SOLUTION
// BEGIN PROMPT
//| // The same result as sequential_inclusive_scan, computed by `num_threads` std::threads with
//| // the two-pass block method.
// END PROMPT
template <class T, class Op>
void parallel_cpu_inclusive_scan(const T* in, T* out, std::size_t n, Op op, unsigned num_threads) {
    // BEGIN SOLUTION
    if (n == 0) return;
    // Never more chunks than elements: an empty chunk has no total to contribute.
    const std::size_t chunks = std::min<std::size_t>(std::max(num_threads, 1u), n);  //@ chunk-count
    using parallel_cpu::Chunk;
    using parallel_cpu::chunk_of;

    parallel_cpu::run_on_threads(chunks, [&](std::size_t c) {
        const Chunk chunk = chunk_of(c, n, chunks);
        sequential_inclusive_scan(in + chunk.begin, out + chunk.begin, chunk.end - chunk.begin, op);  //@ chunk-scan
    });

    // carry[c] = everything before chunk c; carry[0] is never used.
    std::vector<T> carry(chunks, op.identity());
    for (std::size_t c = 1; c < chunks; ++c) {
        const T previous_total = out[chunk_of(c - 1, n, chunks).end - 1];  //@ previous-total
        carry[c] = c == 1 ? previous_total : op(carry[c - 1], previous_total);  //@ carry
    }

    parallel_cpu::run_on_threads(chunks, [&](std::size_t c) {
        if (c == 0) return;  // the first chunk has nothing before it  //@ first-chunk-has-no-carry
        const Chunk chunk = chunk_of(c, n, chunks);
        for (std::size_t i = chunk.begin; i < chunk.end; ++i) out[i] = op(carry[c], out[i]);  //@ add-carry
    });
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 1: split [0, n) into at most num_threads contiguous chunks (num_threads may exceed n)
    //| //         and let one thread scan each chunk independently.
    //| // TODO 2: from the chunk totals, compute for each chunk the combination of everything
    //| //         before it (its carry-in).
    //| // TODO 3: in parallel again, combine each chunk's carry-in into its elements.
    //| // Join every thread before returning. Apply op at most 2(n - 1) times in all.
    // END PROMPT
}

#endif  // SCANLAB_LAB_01_SEQUENTIAL_CU_INCLUDED
