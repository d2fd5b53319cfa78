// BEGIN SOLUTION
// Lab 04 reference solution: Brent-Kung scans of independent sections, two elements per
// thread (section size S = 2 * blockDim.x).
//
// Inclusive: a reduction tree (S - 1 applications) leaves every power-of-two-aligned
// partial sum in place; a distribution tree (S - 1 - log2(S)) pushes them to the positions
// that still miss a part of their prefix: 2S - 2 - log2(S) in all, against Kogge-Stone's
// S*log2(S) - (S-1). The threads that work in a step are always the lowest-numbered ones
// (index = (tid + 1) * 2 * stride - 1), so whole warps fall idle together and a warp
// diverges only once fewer than 32 threads work.
//
// Exclusive: the same reduction ("up-sweep"), the identity put at the root, then a
// "down-sweep" that hands each node's prefix to its left child and the prefix combined with
// the left child's total to its right child: 2(S - 1) applications. The section lives in
// shared memory with one padding word every 32 (and every 1024) elements, which spreads the
// power-of-two strides of both trees over all 32 banks.
// END SOLUTION
// BEGIN PROMPT
//| // Lab 04: Brent-Kung scans of independent sections, two elements per thread.
//| //
//| // One block of section_size / 2 threads scans one section of `section_size` consecutive
//| // elements in shared memory. Sections are independent.
//| //
//| // Conventions (see README.md):
//| //   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//| //   - Positions of the last section past n take part as op.identity(); nothing is stored
//| //     for them.
// END PROMPT

#ifndef SCANLAB_LAB_04_BRENT_KUNG_CU_INCLUDED  // later labs include this file, perhaps more than once
#define SCANLAB_LAB_04_BRENT_KUNG_CU_INCLUDED

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>

#include "scanlab/cuda_check.hpp"
#include "scanlab/section_size.hpp"
#include "scanlab/shared_alignment.hpp"

// ---------------------------------------------------------------------------------------
// Block level: scan a section of section_size elements in shared memory with
// section_size / 2 threads. Later labs may reuse these functions by including this file:
// when they return, every thread of the block sees the whole scanned section.

// BEGIN SOLUTION
// Where element i of a section is in shared memory: at i (here), or at padded_index(i).
struct Unpadded {
    __device__ unsigned operator()(unsigned i) const { return i; }
};

// The reduction tree (the exclusive scan's up-sweep): after the step with `stride`, element
// (k + 1) * 2 * stride - 1 holds the combination of the 2 * stride elements that end there.
// Thread tid works on the tid-th such element, so the working threads are tid = 0 ..
// S / (2 * stride) - 1.
template <class T, class Op, class Position>
__device__ void reduce_tree(T* section, unsigned tid, unsigned section_size, Op op, Position at) {
    for (unsigned stride = 1; stride < section_size; stride *= 2) {
        const unsigned index = (tid + 1) * 2 * stride - 1;  //@ reduce-index
        if (index < section_size) section[at(index)] = op(section[at(index - stride)], section[at(index)]);  //@ reduce-combine
        __syncthreads();  // this level is complete before the next reads it  //@ reduce-barrier
    }
}

// END SOLUTION
template <class T, class Op>
__device__ void block_scan_brent_kung(T* section, unsigned tid, unsigned section_size, Op op) {
    // BEGIN SOLUTION
    reduce_tree(section, tid, section_size, op, Unpadded{});  //@ inclusive-trees
    // The distribution tree: each partial sum of the reduction is pushed `stride` places to
    // the right, to the one position that lacks exactly that part of its prefix.
    for (unsigned stride = section_size / 4; stride > 0; stride /= 2) {
        const unsigned index = (tid + 1) * 2 * stride - 1;
        if (index + stride < section_size) {  //@ distribute-guard
            section[index + stride] = op(section[index], section[index + stride]);  //@ distribute-combine
        }
        __syncthreads();  // this level is complete before the next reads it  //@ distribute-barrier
    }
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 1: the reduction tree, then the distribution tree, in place. In every step the
    //| //         threads that do work must be the lowest-numbered ones.
    // END PROMPT
}

// Where element i of a section lives in the padded shared-memory buffer of the exclusive
// scan; the buffer holds padded_index(section_size - 1) + 1 elements.
constexpr unsigned kLogBanks = 5;  // 32 banks of 4 bytes
__host__ __device__ constexpr unsigned padded_index(unsigned i) {
    // BEGIN SOLUTION
    // One padding word after every 32 elements, and one more after every 1024: strides of
    // 32, 64, ... elements then fall on different banks (up to sections of 2048 elements).
    return i + (i >> kLogBanks) + (i >> (2 * kLogBanks));  //@ padding
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 2: pad so that the trees' strided accesses fall on different banks.
    //| return i;
    // END PROMPT
}

// BEGIN SOLUTION
struct Padded {
    __device__ unsigned operator()(unsigned i) const { return padded_index(i); }
};

// END SOLUTION
template <class T, class Op>
__device__ void block_exclusive_scan_brent_kung(T* padded, unsigned tid, unsigned section_size, Op op) {
    // BEGIN SOLUTION
    reduce_tree(padded, tid, section_size, op, Padded{});  // the up-sweep
    // The root's prefix is the identity. No barrier needed before the down-sweep: its first
    // step is thread 0's alone, on the root.
    if (tid == 0) padded[padded_index(section_size - 1)] = op.identity();  //@ root
    // Down-sweep: node `index` holds the prefix of everything before its subtree; its left
    // child (index - stride) holds its subtree's first half. The left child gets the node's
    // prefix, the right child (the node's own position) that prefix followed by the left
    // half: earlier operand first, so non-commutative operators keep their order.
    for (unsigned stride = section_size / 2; stride > 0; stride /= 2) {
        const unsigned index = (tid + 1) * 2 * stride - 1;
        if (index < section_size) {
            const T left_total = padded[padded_index(index - stride)];
            const T prefix = padded[padded_index(index)];
            padded[padded_index(index - stride)] = prefix;
            padded[padded_index(index)] = op(prefix, left_total);  //@ down-sweep-combine
        }
        __syncthreads();  // this level is complete before the next reads it  //@ down-sweep-barrier
    }
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 3: the up-sweep, the identity at the root, the down-sweep, all on padded
    //| //         positions (padded_index).
    // END PROMPT
}

// ---------------------------------------------------------------------------------------
// Kernels: one block of section_size / 2 threads per section.

template <class T, class Op>
__global__ void brent_kung_kernel(const T* in, T* out, std::size_t n, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    T* const section = reinterpret_cast<T*>(shared_bytes);  // 2 * blockDim.x elements
    // BEGIN SOLUTION
    const unsigned section_size = 2 * blockDim.x;
    const std::size_t start = static_cast<std::size_t>(blockIdx.x) * section_size;
    // Each thread loads and stores positions tid and tid + blockDim.x: consecutive threads
    // touch consecutive elements (coalesced), not 2*tid and 2*tid + 1.
    for (unsigned k = threadIdx.x; k < section_size; k += blockDim.x) {
        section[k] = start + k < n ? in[start + k] : op.identity();  //@ load
    }
    __syncthreads();  // the whole section is loaded before the trees read it  //@ load-barrier
    block_scan_brent_kung(section, threadIdx.x, section_size, op);
    for (unsigned k = threadIdx.x; k < section_size; k += blockDim.x) {
        if (start + k < n) out[start + k] = section[k];  //@ store
    }
    // END SOLUTION
    // BEGIN PROMPT
    //|
    //| // TODO 4: load this block's section (two elements per thread, identity past n), scan it
    //| //         with block_scan_brent_kung, store the positions below n.
    // END PROMPT
}

template <class T, class Op>
__global__ void brent_kung_exclusive_kernel(const T* in, T* out, std::size_t n, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    T* const padded = reinterpret_cast<T*>(shared_bytes);  // padded_index(2 * blockDim.x - 1) + 1 elements
    // BEGIN SOLUTION
    const unsigned section_size = 2 * blockDim.x;
    const std::size_t start = static_cast<std::size_t>(blockIdx.x) * section_size;
    for (unsigned k = threadIdx.x; k < section_size; k += blockDim.x) {
        padded[padded_index(k)] = start + k < n ? in[start + k] : op.identity();  //@ exclusive-load
    }
    __syncthreads();  // the whole section is loaded before the trees read it  //@ exclusive-load-barrier
    block_exclusive_scan_brent_kung(padded, threadIdx.x, section_size, op);
    for (unsigned k = threadIdx.x; k < section_size; k += blockDim.x) {
        if (start + k < n) out[start + k] = padded[padded_index(k)];  //@ exclusive-store
    }
    // END SOLUTION
    // BEGIN PROMPT
    //|
    //| // TODO 4: the same for the exclusive scan, with block_exclusive_scan_brent_kung, through
    //| //         padded_index.
    // END PROMPT
}

// ---------------------------------------------------------------------------------------
// Host entries.

inline void check_brent_kung_section_size(unsigned section_size) {
    if (section_size % 2 != 0 || !scanlab::is_valid_section_size(section_size / 2)) {
        throw std::invalid_argument("section_size must be a power of two in [64, 2048] (two elements per thread)");
    }
}

template <class T, class Op>
void brent_kung_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op) {
    check_brent_kung_section_size(section_size);
    // BEGIN SOLUTION
    if (n == 0) return;  // a launch with no blocks is an invalid configuration
    const auto sections = static_cast<unsigned>(scanlab::ceil_div(n, section_size));
    brent_kung_kernel<<<sections, section_size / 2, section_size * sizeof(T)>>>(d_in, d_out, n, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 5: launch brent_kung_kernel with one block of section_size / 2 threads per
    //| //         section and the dynamic shared memory it needs; check the launch.
    // END PROMPT
}

template <class T, class Op>
void brent_kung_exclusive_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op) {
    check_brent_kung_section_size(section_size);
    // BEGIN SOLUTION
    if (n == 0) return;
    const auto sections = static_cast<unsigned>(scanlab::ceil_div(n, section_size));
    const std::size_t shared_bytes = (padded_index(section_size - 1) + 1) * sizeof(T);  //@ padded-bytes
    brent_kung_exclusive_kernel<<<sections, section_size / 2, shared_bytes>>>(d_in, d_out, n, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 5: launch brent_kung_exclusive_kernel the same way, with the padded buffer's size.
    // END PROMPT
}

#endif  // SCANLAB_LAB_04_BRENT_KUNG_CU_INCLUDED
