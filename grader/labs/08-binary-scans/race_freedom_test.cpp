#include <algorithm>
#include <random>

#include "predicate_patterns.hpp"
#include "scanlab/cuda_check.hpp"
#include "sim_reports.hpp"

namespace {

using namespace lab08;
using scanlab::grading::discard_simulator_reports;
using scanlab::grading::no_simulator_errors;

// The block-level sums and the radix sort reuse shared memory between rounds: every reuse
// must be ordered by a barrier. A race-free result must also be a right one.
TEST(Lab08RaceFreedom, BlockScansAndRadixSort) {
    for (const unsigned threads : {50u, 1000u}) {
        SCOPED_TRACE(std::to_string(threads) + " threads");
        discard_simulator_reports();
        std::vector<std::uint8_t> predicates(threads);
        std::mt19937 random(threads);
        for (auto& p : predicates) p = random() % 2;
        std::vector<unsigned> expected_sums(threads, 0);
        for (unsigned i = 1; i < threads; ++i) expected_sums[i] = expected_sums[i - 1] + predicates[i - 1];
        EXPECT_TRUE(same(expected_sums, run_probe(Probe::block_exclusive, predicates)));
        // Two calls in a row on the same shared memory: the second may start as soon as the
        // first returns. Below thread i there are i threads, p or not.
        std::vector<unsigned> thread_indices(threads);
        for (unsigned i = 0; i < threads; ++i) thread_indices[i] = i;
        EXPECT_TRUE(same(thread_indices, run_probe(Probe::block_exclusive_twice, predicates)));
        std::vector<unsigned> keys(threads);
        for (auto& k : keys) k = random();
        unsigned *in = nullptr, *out = nullptr;
        SCANLAB_CUDA_CHECK(cudaMalloc(&in, threads * sizeof(unsigned)));
        SCANLAB_CUDA_CHECK(cudaMalloc(&out, threads * sizeof(unsigned)));
        SCANLAB_CUDA_CHECK(cudaMemcpy(in, keys.data(), threads * sizeof(unsigned), cudaMemcpyHostToDevice));
        radix_sort_block(in, out, threads);
        SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<unsigned> sorted(threads);
        SCANLAB_CUDA_CHECK(cudaMemcpy(sorted.data(), out, threads * sizeof(unsigned), cudaMemcpyDeviceToHost));
        std::sort(keys.begin(), keys.end());
        EXPECT_TRUE(same(keys, sorted)) << "the radix sort (a race-free sort must also sort)";
        cudaFree(in);
        cudaFree(out);
        EXPECT_TRUE(no_simulator_errors());
    }
}

}  // namespace
