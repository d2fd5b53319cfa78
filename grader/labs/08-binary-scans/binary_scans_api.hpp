// Lab 08's entries as the suite calls them: the host entries of the applications, and probes
// (instantiations.cu) that run the lab's device functions in kernels and bring back what
// every thread got.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

void split_block(const unsigned* d_keys, unsigned* d_out, unsigned n, unsigned bit);
void radix_sort_block(const unsigned* d_keys, unsigned* d_out, unsigned n);
void compact_block(const int* d_in, int* d_out, unsigned* d_count, unsigned n);

namespace lab08 {

// Which device function a probe runs, one block of predicates.size() threads.
enum class Probe : int {
    count,
    exclusive,
    inclusive,
    reverse_exclusive,
    reverse_inclusive,
    segmented_exclusive,
    block_count,
    block_exclusive,
    block_exclusive_twice,  // the sum of p, then of !p, reusing the same shared memory: gives tid
};

// Every thread's result of `probe` given its predicate (and head flag).
std::vector<unsigned> run_probe(Probe probe, const std::vector<std::uint8_t>& predicates,
                                const std::vector<std::uint8_t>& heads = {});

// Per thread: lane_mask_lt/le/gt/ge(lane) of the lab, then the GPU's registers (8 values).
std::vector<unsigned> run_lane_mask_probe(unsigned threads);

// Every thread's inclusive shuffle sum of `values` within its warp.
std::vector<unsigned> run_warp_sum_probe(const std::vector<unsigned>& values);

}  // namespace lab08
