// Lab 08 on a GPU: the chapter's two comparisons, with the lab's functions.
//   1. A block-wide count of true predicates: __syncthreads_count (block_binary_count)
//      against a 32-bit reduction in shared memory.
//   2. A block-wide exclusive prefix sum of predicates: ballot and popc per warp
//      (block_binary_exclusive_sum) against the same sum with a 32-bit shuffle scan per warp.
// Blocks of 512 threads, as in the chapter; each kernel runs kRounds rounds per thread on
// predicates computed in registers, so that the block-level operation, not memory, is timed.
// Reported: the median of kSamples timings (CUDA events) per grid size, and the ratio.
//
//   lab08_benchmark [labs-dir-unused] > results.txt
#include SCANLAB_LAB_SOURCE

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

constexpr unsigned kThreads = 512;
constexpr unsigned kRounds = 256;
constexpr int kSamples = 21;

__device__ bool predicate(unsigned round) {
    unsigned x = (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u + round * 40503u;
    x ^= x >> 13;
    return (x & 3u) == 0;
}

__global__ void count_with_intrinsic(unsigned* out) {
    unsigned total = 0;
    for (unsigned r = 0; r < kRounds; ++r) total += block_binary_count(predicate(r));
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}

__global__ void count_with_reduction(unsigned* out) {
    __shared__ unsigned partial[kThreads];
    unsigned total = 0;
    for (unsigned r = 0; r < kRounds; ++r) {
        partial[threadIdx.x] = predicate(r);
        __syncthreads();
        for (unsigned stride = kThreads / 2; stride > 0; stride /= 2) {
            if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
            __syncthreads();
        }
        total += partial[0];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}

__global__ void prefix_with_ballot(unsigned* out) {
    __shared__ unsigned warp_totals[kWarpSize];
    unsigned total = 0;
    for (unsigned r = 0; r < kRounds; ++r) total += block_binary_exclusive_sum(predicate(r), warp_totals);
    out[blockIdx.x * blockDim.x + threadIdx.x] = total;
}

// The same block-wide sum, each warp's part with a 32-bit shuffle scan instead of ballot+popc.
__device__ unsigned block_exclusive_sum_32bit(unsigned x, unsigned* warp_totals) {
    const unsigned warp = threadIdx.x / kWarpSize;
    const unsigned inclusive = warp_inclusive_sum(x, present_lanes());
    if (lane() == kWarpSize - 1) warp_totals[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const unsigned warps = blockDim.x / kWarpSize;
        const unsigned own = lane() < warps ? warp_totals[lane()] : 0;
        const unsigned scanned = warp_inclusive_sum(own, present_lanes());
        if (lane() < warps) warp_totals[lane()] = scanned - own;
    }
    __syncthreads();
    const unsigned result = warp_totals[warp] + inclusive - x;
    __syncthreads();
    return result;
}

__global__ void prefix_with_32bit_scan(unsigned* out) {
    __shared__ unsigned warp_totals[kWarpSize];
    unsigned total = 0;
    for (unsigned r = 0; r < kRounds; ++r) total += block_exclusive_sum_32bit(predicate(r) ? 1u : 0u, warp_totals);
    out[blockIdx.x * blockDim.x + threadIdx.x] = total;
}

template <class Launch>
float median_ms(Launch launch) {
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    launch();  // warm-up
    std::vector<float> samples;
    for (int s = 0; s < kSamples; ++s) {
        cudaEventRecord(start);
        launch();
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        samples.push_back(ms);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    std::nth_element(samples.begin(), samples.begin() + kSamples / 2, samples.end());
    return samples[kSamples / 2];
}

bool same_results(unsigned* a, unsigned* b, std::size_t n) {
    std::vector<unsigned> ha(n), hb(n);
    cudaMemcpy(ha.data(), a, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(hb.data(), b, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    return ha == hb;
}

}  // namespace

int main() {
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    std::printf("# lab 08 benchmark on %s: blocks of %u threads, %u rounds per kernel, median of %d\n", prop.name,
                kThreads, kRounds, kSamples);
    std::printf("%-8s %14s %14s %8s %16s %16s %8s\n", "blocks", "count intr ms", "count red ms", "ratio",
                "prefix ballot ms", "prefix 32bit ms", "ratio");
    const unsigned max_blocks = 1u << 16;
    unsigned *a = nullptr, *b = nullptr;
    cudaMalloc(&a, std::size_t{max_blocks} * kThreads * sizeof(unsigned));
    cudaMalloc(&b, std::size_t{max_blocks} * kThreads * sizeof(unsigned));
    bool agree = true;
    for (unsigned blocks = 1u << 6; blocks <= max_blocks; blocks *= 4) {
        const float count_intrinsic = median_ms([&] { count_with_intrinsic<<<blocks, kThreads>>>(a); });
        const float count_reduction = median_ms([&] { count_with_reduction<<<blocks, kThreads>>>(b); });
        agree = agree && same_results(a, b, blocks);
        const float prefix_ballot = median_ms([&] { prefix_with_ballot<<<blocks, kThreads>>>(a); });
        const float prefix_32bit = median_ms([&] { prefix_with_32bit_scan<<<blocks, kThreads>>>(b); });
        agree = agree && same_results(a, b, std::size_t{blocks} * kThreads);
        std::printf("%-8u %14.3f %14.3f %8.2f %16.3f %16.3f %8.2f\n", blocks, count_intrinsic, count_reduction,
                    count_reduction / count_intrinsic, prefix_ballot, prefix_32bit, prefix_32bit / prefix_ballot);
    }
    std::printf("# results of both versions %s\n", agree ? "agree" : "DIFFER");
    cudaFree(a);
    cudaFree(b);
    return agree && cudaGetLastError() == cudaSuccess ? 0 : 1;
}
