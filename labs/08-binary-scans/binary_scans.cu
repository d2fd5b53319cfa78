// Lab 08: binary scans with warp vote intrinsics, and what they are for.
//
// Conventions (see README.md):
//   - Blocks are one-dimensional; a block's last warp may be partial (blockDim.x not a
//     multiple of 32): present_lanes() names the lanes of the caller's warp that exist.
//   - Only the _sync intrinsics: the mask-less __ballot and __shfl of before CUDA 9 are
//     gone, and warps do not run in lockstep.

#ifndef SCANLAB_LAB_08_BINARY_SCANS_CU_INCLUDED  // later labs include this file, perhaps more than once
#define SCANLAB_LAB_08_BINARY_SCANS_CU_INCLUDED

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>

#include "scanlab/cuda_check.hpp"

constexpr unsigned kWarpSize = 32;
constexpr unsigned kMaxBlock = 1024;  // the applications work on one block of up to this many elements

__device__ inline unsigned lane() { return threadIdx.x % kWarpSize; }

// The lanes of the caller's warp that exist: all 32, or fewer in a partial last warp.
__device__ inline unsigned present_lanes() {
    const unsigned warp_start = threadIdx.x - lane();
    const unsigned lanes = blockDim.x - warp_start < kWarpSize ? blockDim.x - warp_start : kWarpSize;
    return lanes == kWarpSize ? 0xffffffffu : (1u << lanes) - 1u;
}

// ---------------------------------------------------------------------------------------
// Lane masks, with arithmetic: bit k is set for every lane k below (lt), at or below (le),
// above (gt), at or above (ge) `lane`. The grader compares them with the GPU's registers.

__device__ unsigned lane_mask_lt(unsigned lane) {
    return 0;  // TODO 1
}
__device__ unsigned lane_mask_le(unsigned lane) {
    return 0;  // TODO 1 (mind lane 31)
}
__device__ unsigned lane_mask_gt(unsigned lane) {
    return 0;  // TODO 1
}
__device__ unsigned lane_mask_ge(unsigned lane) {
    return 0;  // TODO 1
}

// ---------------------------------------------------------------------------------------
// Warp level: every present lane of the warp calls these with its predicate.

// How many lanes of the warp have p set.
__device__ unsigned warp_binary_count(bool p) {
    return 0;  // TODO 2
}

// How many lanes below this one have p set (exclusive), at or below (inclusive), above
// (reverse exclusive), at or above (reverse inclusive).
__device__ unsigned warp_binary_exclusive_sum(bool p) {
    return 0;  // TODO 3: one ballot and one popc per thread
}
__device__ unsigned warp_binary_inclusive_sum(bool p) {
    return 0;  // TODO 3
}
__device__ unsigned warp_binary_reverse_exclusive_sum(bool p) {
    return 0;  // TODO 3
}
__device__ unsigned warp_binary_reverse_inclusive_sum(bool p) {
    return 0;  // TODO 3
}

// Exclusive sum of p within segments: a lane whose `head` flag is set starts a new
// segment; lane 0 always starts one.
__device__ unsigned warp_segmented_binary_exclusive_sum(bool p, bool head) {
    return 0;  // TODO 4: find where this lane's segment starts with __clz
}

// Inclusive sum of 32-bit values over the lanes in `lanes` (the low lanes of a warp), with
// shuffles.
__device__ unsigned warp_inclusive_sum(unsigned x, unsigned lanes) {
    return x;  // TODO 5: __shfl_up_sync steps
}

// ---------------------------------------------------------------------------------------
// Block level: every thread of the block calls these.

__device__ unsigned block_binary_count(bool p) {
    return 0;  // TODO 6: one intrinsic
}

// How many threads below this one in the block have p set. `warp_totals` is shared memory
// for one value per warp; it may be reused as soon as the call returns.
__device__ unsigned block_binary_exclusive_sum(bool p, unsigned* warp_totals) {
    return 0;  // TODO 7: warp sums with ballot and popc, the warps' totals scanned by one warp
}

// ---------------------------------------------------------------------------------------
// Applications, on one block of n <= 1024 elements, one thread per element.

// Stable split by one bit: the keys whose bit is 0 first, then those whose bit is 1, each in
// their original order. Returns where key i goes.
__device__ unsigned split_position(unsigned key, unsigned bit, unsigned* warp_totals) {
    return threadIdx.x;  // TODO 8
}

__global__ void split_kernel(const unsigned* keys, unsigned* out, unsigned bit) {
    __shared__ unsigned warp_totals[kWarpSize];
    const unsigned key = keys[threadIdx.x];
    out[split_position(key, bit, warp_totals)] = key;
}

__global__ void radix_sort_kernel(const unsigned* keys, unsigned* out) {
    __shared__ unsigned warp_totals[kWarpSize];
    __shared__ unsigned sorted[kMaxBlock];
    unsigned key = keys[threadIdx.x];
    // TODO 9: 32 stable splits, least significant bit first, through `sorted`.
    out[threadIdx.x] = key;
}

// Stream compaction: the nonzero elements, in order; count gets how many there are.
__global__ void compact_kernel(const int* in, int* out, unsigned* count) {
    __shared__ unsigned warp_totals[kWarpSize];
    const int value = in[threadIdx.x];
    // TODO 10
}

// ---------------------------------------------------------------------------------------
// Host entries: one block of n threads.

inline void check_block_elements(unsigned n) {
    if (n > kMaxBlock) throw std::invalid_argument("the applications work on at most 1024 elements (one block)");
}

void split_block(const unsigned* d_keys, unsigned* d_out, unsigned n, unsigned bit) {
    check_block_elements(n);
    if (n == 0) return;
    split_kernel<<<1, n>>>(d_keys, d_out, bit);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

void radix_sort_block(const unsigned* d_keys, unsigned* d_out, unsigned n) {
    check_block_elements(n);
    if (n == 0) return;
    radix_sort_kernel<<<1, n>>>(d_keys, d_out);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

void compact_block(const int* d_in, int* d_out, unsigned* d_count, unsigned n) {
    check_block_elements(n);
    if (n == 0) {
        SCANLAB_CUDA_CHECK(cudaMemset(d_count, 0, sizeof(unsigned)));
        return;
    }
    compact_kernel<<<1, n>>>(d_in, d_out, d_count);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

#endif  // SCANLAB_LAB_08_BINARY_SCANS_CU_INCLUDED
