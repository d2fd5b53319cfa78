// Inputs and expected outputs of the sweep.
//
// Inputs are whole numbers in [-8, 8], drawn from a hash of the index (the same at every size
// and for both types). Their prefix sums stay far inside what int32 holds and what float32
// represents exactly (|prefix| < 2^24) for any n up to 2^30 with overwhelming probability, so
// float32 results are exact whatever order the additions run in, and a result is compared
// exactly. The reference is summed in int64 and checked against the range of T: the check
// itself cannot overflow, and an input whose sum T cannot hold is reported, not compared.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "series.hpp"
#include "scanlab/cuda_check.hpp"

namespace scanlab::bench {

inline constexpr std::int64_t kLargestExactFloat = std::int64_t{1} << 24;

inline int input_value(std::size_t i) {
    std::uint64_t x = i * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return static_cast<int>(x % 17) - 8;
}

// Fills `out` on all host threads (2^30 values take seconds on one).
template <class T>
void fill_inputs(std::vector<T>& out) {
    const std::size_t n = out.size();
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            for (std::size_t i = n * t / threads; i < n * (t + 1) / threads; ++i) out[i] = static_cast<T>(input_value(i));
        });
    }
    for (auto& thread : pool) thread.join();
}

// The expected output: an inclusive or exclusive scan of every section (section_size == 0:
// of the whole array), the input itself (the copy), or every section's total at each of its
// elements; of the input plus `offset`.
template <class T>
std::vector<T> expected_output(const T* in, std::size_t n, Reference reference, std::size_t section_size,
                               int offset = 0) {
    std::vector<T> out(n);
    const std::size_t section = section_size == 0 ? n : section_size;
    for (std::size_t start = 0; start < n; start += section) {
        const std::size_t end = std::min(n, start + section);
        std::int64_t prefix = 0;
        for (std::size_t i = start; i < end; ++i) {
            const std::int64_t before = prefix;
            const std::int64_t x = static_cast<std::int64_t>(in[i]) + offset;
            prefix += x;
            const std::int64_t value = reference == Reference::copy        ? x
                                       : reference == Reference::inclusive ? prefix
                                                                           : before;
            if (value > kLargestExactFloat || value < -kLargestExactFloat) {
                throw std::runtime_error("reference: a prefix sum leaves the range every element type holds exactly");
            }
            out[i] = static_cast<T>(value);
        }
        if (reference == Reference::section_total) std::fill(out.begin() + start, out.begin() + end, static_cast<T>(prefix));
    }
    return out;
}

// Positions where `actual` differs from `expected`, counted on the device.
template <class T>
__global__ void count_mismatches_kernel(const T* actual, const T* expected, std::size_t n,
                                        unsigned long long* mismatches) {
    unsigned long long local = 0;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
        if (actual[i] != expected[i]) ++local;
    }
    if (local != 0) atomicAdd(mismatches, local);
}

template <class T>
unsigned long long count_mismatches(const T* d_actual, const T* d_expected, std::size_t n) {
    // Enough blocks to fill a GPU at large n, few at the simulator's small n.
    constexpr std::size_t kThreads = 256, kElementsPerThread = 16, kMaxBlocks = 1024;
    const auto blocks = static_cast<unsigned>(std::clamp<std::size_t>(
        (n + kThreads * kElementsPerThread - 1) / (kThreads * kElementsPerThread), 1, kMaxBlocks));
    unsigned long long* d_count = nullptr;
    SCANLAB_CUDA_CHECK(cudaMalloc(&d_count, sizeof(*d_count)));
    SCANLAB_CUDA_CHECK(cudaMemset(d_count, 0, sizeof(*d_count)));
    count_mismatches_kernel<<<blocks, kThreads>>>(d_actual, d_expected, n, d_count);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    unsigned long long count = 0;
    SCANLAB_CUDA_CHECK(cudaMemcpy(&count, d_count, sizeof(count), cudaMemcpyDeviceToHost));
    SCANLAB_CUDA_CHECK(cudaFree(d_count));
    return count;
}

}  // namespace scanlab::bench
