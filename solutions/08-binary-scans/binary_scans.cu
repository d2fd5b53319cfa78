// BEGIN SOLUTION
// Lab 08 reference solution: scans of single bits with warp vote and bit intrinsics.
//
// __ballot_sync gives every lane of a warp the predicates of all its lanes as one 32-bit
// word; masking that word with a lane mask and counting its bits (__popc) gives each lane
// its prefix sum in two instructions, where a 32-bit warp scan takes five shuffle steps.
// A block combines its warps' counts with one shuffle scan of at most 32 values. Split,
// stream compaction and radix sort are those prefix sums put to work.
// END SOLUTION
// BEGIN PROMPT
//| // Lab 08: binary scans with warp vote intrinsics, and what they are for.
//| //
//| // Conventions (see README.md):
//| //   - Blocks are one-dimensional; a block's last warp may be partial (blockDim.x not a
//| //     multiple of 32): present_lanes() names the lanes of the caller's warp that exist.
//| //   - Only the _sync intrinsics: the mask-less __ballot and __shfl of before CUDA 9 are
//| //     gone, and warps do not run in lockstep.
// END PROMPT

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
    return lanes == kWarpSize ? 0xffffffffu : (1u << lanes) - 1u;  //@ present-lanes
}

// ---------------------------------------------------------------------------------------
// Lane masks, with arithmetic: bit k is set for every lane k below (lt), at or below (le),
// above (gt), at or above (ge) `lane`. The grader compares them with the GPU's registers.

__device__ unsigned lane_mask_lt(unsigned lane) {
    // BEGIN SOLUTION
    return (1u << lane) - 1u;  //@ mask-lt
    // END SOLUTION
    // BEGIN PROMPT
    //| return 0;  // TODO 1
    // END PROMPT
}
__device__ unsigned lane_mask_le(unsigned lane) {
    // BEGIN SOLUTION
    return (2u << lane) - 1u;  // lane 31: 2u << 31 wraps to 0, and 0 - 1 is all ones  //@ mask-le
    // END SOLUTION
    // BEGIN PROMPT
    //| return 0;  // TODO 1 (mind lane 31)
    // END PROMPT
}
__device__ unsigned lane_mask_gt(unsigned lane) {
    // BEGIN SOLUTION
    return ~lane_mask_le(lane);
    // END SOLUTION
    // BEGIN PROMPT
    //| return 0;  // TODO 1
    // END PROMPT
}
__device__ unsigned lane_mask_ge(unsigned lane) {
    // BEGIN SOLUTION
    return ~lane_mask_lt(lane);
    // END SOLUTION
    // BEGIN PROMPT
    //| return 0;  // TODO 1
    // END PROMPT
}

// ---------------------------------------------------------------------------------------
// Warp level: every present lane of the warp calls these with its predicate.

// How many lanes of the warp have p set.
__device__ unsigned warp_binary_count(bool p) {
    // BEGIN SOLUTION
    return __popc(__ballot_sync(present_lanes(), p));  //@ count
    // END SOLUTION
    // BEGIN PROMPT
    //| return 0;  // TODO 2
    // END PROMPT
}

// How many lanes below this one have p set (exclusive), at or below (inclusive), above
// (reverse exclusive), at or above (reverse inclusive).
__device__ unsigned warp_binary_exclusive_sum(bool p) {
    // BEGIN SOLUTION
    return __popc(__ballot_sync(present_lanes(), p) & lane_mask_lt(lane()));  //@ exclusive
    // END SOLUTION
    // BEGIN PROMPT
    //| return 0;  // TODO 3: one ballot and one popc per thread
    // END PROMPT
}
__device__ unsigned warp_binary_inclusive_sum(bool p) {
    // BEGIN SOLUTION
    return __popc(__ballot_sync(present_lanes(), p) & lane_mask_le(lane()));
    // END SOLUTION
    // BEGIN PROMPT
    //| return 0;  // TODO 3
    // END PROMPT
}
__device__ unsigned warp_binary_reverse_exclusive_sum(bool p) {
    // BEGIN SOLUTION
    return __popc(__ballot_sync(present_lanes(), p) & lane_mask_gt(lane()));
    // END SOLUTION
    // BEGIN PROMPT
    //| return 0;  // TODO 3
    // END PROMPT
}
__device__ unsigned warp_binary_reverse_inclusive_sum(bool p) {
    // BEGIN SOLUTION
    return __popc(__ballot_sync(present_lanes(), p) & lane_mask_ge(lane()));
    // END SOLUTION
    // BEGIN PROMPT
    //| return 0;  // TODO 3
    // END PROMPT
}

// Exclusive sum of p within segments: a lane whose `head` flag is set starts a new
// segment; lane 0 always starts one.
__device__ unsigned warp_segmented_binary_exclusive_sum(bool p, bool head) {
    // BEGIN SOLUTION
    const unsigned lanes = present_lanes();
    const unsigned heads_up_to_here = __ballot_sync(lanes, head) & lane_mask_le(lane());  //@ heads
    // The segment starts at the highest head at or below this lane: 31 - clz of that word.
    const unsigned segment_start = heads_up_to_here == 0 ? 0 : kWarpSize - 1 - __clz(heads_up_to_here);
    return __popc(__ballot_sync(lanes, p) & lane_mask_lt(lane()) & lane_mask_ge(segment_start));
    // END SOLUTION
    // BEGIN PROMPT
    //| return 0;  // TODO 4: find where this lane's segment starts with __clz
    // END PROMPT
}

// Inclusive sum of 32-bit values over the lanes in `lanes` (the low lanes of a warp), with
// shuffles.
__device__ unsigned warp_inclusive_sum(unsigned x, unsigned lanes) {
    // BEGIN SOLUTION
    for (unsigned delta = 1; delta < kWarpSize; delta *= 2) {
        const unsigned below = __shfl_up_sync(lanes, x, delta);
        if (lane() >= delta) x += below;
    }
    return x;
    // END SOLUTION
    // BEGIN PROMPT
    //| return x;  // TODO 5: __shfl_up_sync steps
    // END PROMPT
}

// ---------------------------------------------------------------------------------------
// Block level: every thread of the block calls these.

__device__ unsigned block_binary_count(bool p) {
    // BEGIN SOLUTION
    return __syncthreads_count(p);
    // END SOLUTION
    // BEGIN PROMPT
    //| return 0;  // TODO 6: one intrinsic
    // END PROMPT
}

// How many threads below this one in the block have p set. `warp_totals` is shared memory
// for one value per warp; it may be reused as soon as the call returns.
__device__ unsigned block_binary_exclusive_sum(bool p, unsigned* warp_totals) {
    // BEGIN SOLUTION
    const unsigned warp = threadIdx.x / kWarpSize;
    const unsigned warps = (blockDim.x + kWarpSize - 1) / kWarpSize;
    const unsigned ballot = __ballot_sync(present_lanes(), p);
    const unsigned within_warp = __popc(ballot & lane_mask_lt(lane()));
    if (lane() == 0) warp_totals[warp] = __popc(ballot);  //@ warp-total-write
    __syncthreads();  // every warp's total is written  //@ totals-barrier
    if (warp == 0) {
        // The first warp turns the totals into exclusive prefix sums with one shuffle scan.
        const unsigned own = lane() < warps ? warp_totals[lane()] : 0;
        const unsigned inclusive = warp_inclusive_sum(own, present_lanes());
        if (lane() < warps) warp_totals[lane()] = inclusive - own;
    }
    __syncthreads();  // the prefixes are written  //@ prefixes-barrier
    const unsigned result = warp_totals[warp] + within_warp;
    __syncthreads();  // everyone has read: the caller may reuse warp_totals  //@ reuse-barrier
    return result;
    // END SOLUTION
    // BEGIN PROMPT
    //| return 0;  // TODO 7: warp sums with ballot and popc, the warps' totals scanned by one warp
    // END PROMPT
}

// ---------------------------------------------------------------------------------------
// Applications, on one block of n <= 1024 elements, one thread per element.

// Stable split by one bit: the keys whose bit is 0 first, then those whose bit is 1, each in
// their original order. Returns where key i goes.
__device__ unsigned split_position(unsigned key, unsigned bit, unsigned* warp_totals) {
    // BEGIN SOLUTION
    const bool one = (key >> bit) & 1u;
    const unsigned zeros = block_binary_count(!one);
    const unsigned zeros_before = block_binary_exclusive_sum(!one, warp_totals);
    return one ? zeros + (threadIdx.x - zeros_before) : zeros_before;
    // END SOLUTION
    // BEGIN PROMPT
    //| return threadIdx.x;  // TODO 8
    // END PROMPT
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
    // BEGIN SOLUTION
    // Least significant bit first: each stable split keeps the order of the bits below.
    for (unsigned bit = 0; bit < 32; ++bit) {
        const unsigned position = split_position(key, bit, warp_totals);
        sorted[position] = key;  //@ sort-scatter
        __syncthreads();  // every key is in its place  //@ sort-barrier
        key = sorted[threadIdx.x];
        // No barrier here: the next round's split starts with one (__syncthreads_count)
        // before any thread writes `sorted` again.
    }
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 9: 32 stable splits, least significant bit first, through `sorted`.
    // END PROMPT
    out[threadIdx.x] = key;
}

// Stream compaction: the nonzero elements, in order; count gets how many there are.
__global__ void compact_kernel(const int* in, int* out, unsigned* count) {
    __shared__ unsigned warp_totals[kWarpSize];
    const int value = in[threadIdx.x];
    // BEGIN SOLUTION
    const bool keep = value != 0;
    const unsigned kept = block_binary_count(keep);
    const unsigned position = block_binary_exclusive_sum(keep, warp_totals);
    if (keep) out[position] = value;
    if (threadIdx.x == 0) *count = kept;
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 10
    // END PROMPT
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
