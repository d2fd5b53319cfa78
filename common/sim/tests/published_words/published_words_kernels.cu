// Two words published by one thread, polled by other blocks: see published_words_kernels.hpp.
#include <cuda_runtime.h>

#include <cstring>

#include "published_words_kernels.hpp"

namespace {

constexpr unsigned kParts = 2;
constexpr unsigned kResults = 3;  // an observation: state, first part, second part

__device__ unsigned long long word_of(unsigned state, unsigned part) {
    return static_cast<unsigned long long>(state) << 32 | part;
}
__device__ unsigned state_of(unsigned long long word) { return static_cast<unsigned>(word >> 32); }

__device__ void publish(volatile unsigned long long* words, unsigned state) {
    words[0] = word_of(state, kFirstPartOf[state]);
    words[1] = word_of(state, kSecondPartOf[state]);
}

// Reads both words until the first shows at least `state` (and, when asked, the second the same).
template <class Word>
__device__ void take(Word* words, unsigned state, bool check_both_states, unsigned* result) {
    for (;;) {
        unsigned long long seen[kParts];
        for (unsigned p = 0; p < kParts; ++p) seen[p] = words[p];
        const bool same_state = !check_both_states || state_of(seen[1]) == state_of(seen[0]);
        if (state_of(seen[0]) >= state && same_state) {
            result[0] = state_of(seen[0]);
            result[1] = static_cast<unsigned>(seen[0]);
            result[2] = static_cast<unsigned>(seen[1]);
            return;
        }
    }
}

__global__ void publish_and_read(unsigned long long* words, unsigned* results, bool check_both_states) {
    if (threadIdx.x != 0) return;
    volatile unsigned long long* const status = words;
    if (blockIdx.x == 0) {
        publish(status, 1);
        publish(status, 2);
        return;
    }
    unsigned* const mine = results + (blockIdx.x - 1) * 2 * kResults;
    take(status, 1, check_both_states, mine);
    take(status, 2, check_both_states, mine + kResults);
}

}  // namespace

const int kPollLoadLine = __LINE__ + 3;  // the load in load_word below
namespace {
__device__ unsigned long long load_word(const unsigned long long* word) {
    return *word;
}

__global__ void publish_and_poll(unsigned long long* words, unsigned* result, bool volatile_pointer) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        publish(words, 1);
        return;
    }
    if (volatile_pointer) {
        take(static_cast<volatile unsigned long long*>(words), 1, true, result);
        return;
    }
    for (;;) {
        unsigned long long seen[kParts];
        for (unsigned p = 0; p < kParts; ++p) seen[p] = load_word(words + p);
        if (state_of(seen[0]) == 1 && state_of(seen[1]) == 1) {
            result[0] = state_of(seen[0]);
            result[1] = static_cast<unsigned>(seen[0]);
            result[2] = static_cast<unsigned>(seen[1]);
            return;
        }
    }
}

std::vector<Observation> observations_of(const std::vector<unsigned>& results) {
    std::vector<Observation> seen(results.size() / kResults);
    for (std::size_t i = 0; i < seen.size(); ++i)
        seen[i] = Observation{results[kResults * i], results[kResults * i + 1], results[kResults * i + 2]};
    return seen;
}

}  // namespace

std::vector<Observation> publish_two_values(unsigned readers, bool check_both_states) {
    unsigned long long* words = nullptr;
    unsigned* results = nullptr;
    const std::size_t result_count = std::size_t{readers} * 2 * kResults;
    cudaMalloc(&words, kParts * sizeof *words);
    cudaMalloc(&results, result_count * sizeof *results);
    cudaMemset(words, 0, kParts * sizeof *words);
    cudaMemset(results, 0, result_count * sizeof *results);
    publish_and_read<<<readers + 1, 32>>>(words, results, check_both_states);
    cudaDeviceSynchronize();
    std::vector<unsigned> host(result_count);
    cudaMemcpy(host.data(), results, result_count * sizeof *results, cudaMemcpyDeviceToHost);
    cudaFree(words);
    cudaFree(results);
    return observations_of(host);
}

Observation poll_two_words(bool volatile_pointer, int* launch_error) {
    unsigned long long* words = nullptr;
    unsigned* result = nullptr;
    cudaMalloc(&words, kParts * sizeof *words);
    cudaMalloc(&result, kResults * sizeof *result);
    cudaMemset(words, 0, kParts * sizeof *words);
    cudaMemset(result, 0, kResults * sizeof *result);
    publish_and_poll<<<2, 32>>>(words, result, volatile_pointer);
    *launch_error = static_cast<int>(cudaDeviceSynchronize());
    std::vector<unsigned> host(kResults);
    cudaMemcpy(host.data(), result, kResults * sizeof *result, cudaMemcpyDeviceToHost);
    cudaFree(words);
    cudaFree(result);
    return observations_of(host).front();
}
