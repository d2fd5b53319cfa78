// Lab 01 reference solution: the sequential scans every parallel scan is measured against,
// and a multithreaded CPU scan (the two-pass block method).
//
// All functions accept out == in (an in-place scan): every input element is read before the
// output element at the same index is written.

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

// out[i] = in[0] op in[1] op ... op in[i]. Applies op exactly n - 1 times, the minimum.
template <class T, class Op>
void sequential_inclusive_scan(const T* in, T* out, std::size_t n, Op op) {
    if (n == 0) return;
    T running = in[0];  // kept in a register: one load, one op and one store per element
    out[0] = running;
    for (std::size_t i = 1; i < n; ++i) {
        running = op(running, in[i]);
        out[i] = running;
    }
}

// out[0] = identity, out[i] = in[0] op ... op in[i-1]. Applies op n - 1 times: the last input
// contributes to no output, so it is never combined.
template <class T, class Op>
void sequential_exclusive_scan(const T* in, T* out, std::size_t n, Op op) {
    if (n == 0) return;
    T running = op.identity();
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const T x = in[i];  // read before out[i] is written, in case out == in
        out[i] = running;
        running = op(running, x);
    }
    out[n - 1] = running;
}

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
    return Chunk{begin, begin + base + (c < extra ? 1 : 0)};
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
template <class T, class Op>
void parallel_cpu_inclusive_scan(const T* in, T* out, std::size_t n, Op op, unsigned num_threads) {
    if (n == 0) return;
    // Never more chunks than elements: an empty chunk has no total to contribute.
    const std::size_t chunks = std::min<std::size_t>(std::max(num_threads, 1u), n);
    using parallel_cpu::Chunk;
    using parallel_cpu::chunk_of;

    parallel_cpu::run_on_threads(chunks, [&](std::size_t c) {
        const Chunk chunk = chunk_of(c, n, chunks);
        sequential_inclusive_scan(in + chunk.begin, out + chunk.begin, chunk.end - chunk.begin, op);
    });

    // carry[c] = everything before chunk c; carry[0] is never used.
    std::vector<T> carry(chunks, op.identity());
    for (std::size_t c = 1; c < chunks; ++c) {
        const T previous_total = out[chunk_of(c - 1, n, chunks).end - 1];
        carry[c] = c == 1 ? previous_total : op(carry[c - 1], previous_total);
    }

    parallel_cpu::run_on_threads(chunks, [&](std::size_t c) {
        if (c == 0) return;  // the first chunk has nothing before it
        const Chunk chunk = chunk_of(c, n, chunks);
        for (std::size_t i = chunk.begin; i < chunk.end; ++i) out[i] = op(carry[c], out[i]);
    });
}
