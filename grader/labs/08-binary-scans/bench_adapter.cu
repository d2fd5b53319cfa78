// Lab 08 in reports/bench: the chapter's two comparisons, with this lab's block-level functions,
// on sections of one block of 512 threads (the chapter's block), one element per thread.
//
// Each element x in [-8, 8] is taken apart into kLevels = 16 bits, p_r = (x + 8 > r) for
// r = 0..15 (a unary code: x + 8 of them are set), and each kernel runs one block-level binary
// operation per bit. Summed over the bits, that gives a result the sweep can check exactly:
//   - the exclusive prefix sums of the bits are the exclusive scan of x + 8 within the section:
//     ballot and popc per warp (block_binary_exclusive_sum) against the same block structure
//     with a 32-bit shuffle scan per warp;
//   - the counts of the bits are the section's total of x + 8: __syncthreads_count
//     (block_binary_count) against a 32-bit tree reduction in shared memory.
// Sixteen block-level operations per element read and written once: the operations, not
// memory, take the time, as in the chapter's comparison.
#include SCANLAB_LAB_SOURCE

#include "series.hpp"
#include "scanlab/cuda_check.hpp"

namespace {

constexpr unsigned kThreads = 512;
constexpr int kLevels = 16;      // bits per element: x + 8 is in [0, 16]
constexpr int kInputOffset = 8;  // what makes x in [-8, 8] a count in [0, 16]

template <class T>
__device__ int element_count(const T* in, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    return i < n ? static_cast<int>(in[i]) + kInputOffset : 0;  // past n: no bit set
}

// The same block-wide exclusive sum as block_binary_exclusive_sum, each warp's part with a 32-bit
// shuffle scan (the lab's warp_inclusive_sum) instead of ballot and popc.
__device__ unsigned block_exclusive_sum_32bit(unsigned x, unsigned* warp_totals) {
    const unsigned warp = threadIdx.x / kWarpSize;
    const unsigned inclusive = warp_inclusive_sum(x, present_lanes());
    if (lane() == kWarpSize - 1) warp_totals[warp] = inclusive;
    __syncthreads();  // every warp's total is written
    if (warp == 0) {
        const unsigned warps = blockDim.x / kWarpSize;
        const unsigned own = lane() < warps ? warp_totals[lane()] : 0;
        const unsigned scanned = warp_inclusive_sum(own, present_lanes());
        if (lane() < warps) warp_totals[lane()] = scanned - own;
    }
    __syncthreads();  // the warps' prefixes are written
    const unsigned result = warp_totals[warp] + inclusive - x;
    __syncthreads();  // everyone has read them: the next call may reuse warp_totals
    return result;
}

// A block-wide count with a 32-bit tree reduction in shared memory, a barrier per level.
__device__ unsigned block_count_by_reduction(bool p, unsigned* partial) {
    partial[threadIdx.x] = p;
    __syncthreads();  // every thread's value is written
    for (unsigned stride = kThreads / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();  // this level's sums are written
    }
    const unsigned total = partial[0];
    __syncthreads();  // everyone has read the total: the next call may overwrite it
    return total;
}

enum class BlockOperation { ballot_prefix, shuffle_prefix, intrinsic_count, reduction_count };

template <BlockOperation kOperation, class T>
__global__ void unary_code_kernel(const T* in, T* out, std::size_t n) {
    __shared__ unsigned scratch[kOperation == BlockOperation::reduction_count ? kThreads : kWarpSize];
    const int count = element_count(in, n);
    unsigned sum = 0;
    for (int r = 0; r < kLevels; ++r) {
        const bool bit = count > r;
        if constexpr (kOperation == BlockOperation::ballot_prefix) sum += block_binary_exclusive_sum(bit, scratch);
        if constexpr (kOperation == BlockOperation::shuffle_prefix) sum += block_exclusive_sum_32bit(bit, scratch);
        if constexpr (kOperation == BlockOperation::intrinsic_count) sum += block_binary_count(bit);
        if constexpr (kOperation == BlockOperation::reduction_count) sum += block_count_by_reduction(bit, scratch);
    }
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = static_cast<T>(sum);
}

template <BlockOperation kOperation, class T>
void run_unary_code(const T* in, T* out, std::size_t n) {
    const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
    unary_code_kernel<kOperation><<<blocks, kThreads>>>(in, out, n);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void scanlab::bench::register_series(SeriesList& list) {
    const auto series = [](const char* entry, const char* label, const char* algorithm, Reference reference) {
        SeriesInfo info = lab_series("08-binary-scans", entry, label, algorithm, "sections", kThreads, kThreads,
                                     reference);
        info.input_offset = kInputOffset;
        info.counts_on_gpu = false;  // bits are counted, not combined with the series' operator
        return info;
    };
    list.add(series("block_binary_exclusive_sum", "08 block binary prefix sums, ballot + popc (16 bits)",
                    "binary-prefix-ballot", Reference::exclusive),
             [](auto in, auto out, std::size_t n, auto) { run_unary_code<BlockOperation::ballot_prefix>(in, out, n); });
    list.add(series("block_exclusive_sum_32bit", "08 block prefix sums, 32-bit shuffle scan (16 bits)",
                    "binary-prefix-shuffle", Reference::exclusive),
             [](auto in, auto out, std::size_t n, auto) { run_unary_code<BlockOperation::shuffle_prefix>(in, out, n); });
    list.add(series("block_binary_count", "08 block counts, __syncthreads_count (16 bits)", "binary-count-intrinsic",
                    Reference::section_total),
             [](auto in, auto out, std::size_t n, auto) { run_unary_code<BlockOperation::intrinsic_count>(in, out, n); });
    list.add(series("block_count_by_reduction", "08 block counts, 32-bit tree reduction (16 bits)",
                    "binary-count-reduction", Reference::section_total),
             [](auto in, auto out, std::size_t n, auto) { run_unary_code<BlockOperation::reduction_count>(in, out, n); });
}
