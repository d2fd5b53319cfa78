// Lab 04: Brent-Kung scans of independent sections, two elements per thread.
//
// One block of section_size / 2 threads scans one section of `section_size` consecutive
// elements in shared memory. Sections are independent.
//
// Conventions (see README.md):
//   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//   - Positions of the last section past n take part as op.identity(); nothing is stored
//     for them.

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

template <class T, class Op>
__device__ void block_scan_brent_kung(T* section, unsigned tid, unsigned section_size, Op op) {
    // TODO 1: the reduction tree, then the distribution tree, in place. In every step the
    //         threads that do work must be the lowest-numbered ones.
}

// Where element i of a section lives in the padded shared-memory buffer of the exclusive
// scan; the buffer holds padded_index(section_size - 1) + 1 elements.
constexpr unsigned kLogBanks = 5;  // 32 banks of 4 bytes
__host__ __device__ constexpr unsigned padded_index(unsigned i) {
    // TODO 2: pad so that the trees' strided accesses fall on different banks.
    return i;
}

template <class T, class Op>
__device__ void block_exclusive_scan_brent_kung(T* padded, unsigned tid, unsigned section_size, Op op) {
    // TODO 3: the up-sweep, the identity at the root, the down-sweep, all on padded
    //         positions (padded_index).
}

// ---------------------------------------------------------------------------------------
// Kernels: one block of section_size / 2 threads per section.

template <class T, class Op>
__global__ void brent_kung_kernel(const T* in, T* out, std::size_t n, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    T* const section = reinterpret_cast<T*>(shared_bytes);  // 2 * blockDim.x elements

    // TODO 4: load this block's section (two elements per thread, identity past n), scan it
    //         with block_scan_brent_kung, store the positions below n.
}

template <class T, class Op>
__global__ void brent_kung_exclusive_kernel(const T* in, T* out, std::size_t n, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    T* const padded = reinterpret_cast<T*>(shared_bytes);  // padded_index(2 * blockDim.x - 1) + 1 elements

    // TODO 4: the same for the exclusive scan, with block_exclusive_scan_brent_kung, through
    //         padded_index.
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
    // TODO 5: launch brent_kung_kernel with one block of section_size / 2 threads per
    //         section and the dynamic shared memory it needs; check the launch.
}

template <class T, class Op>
void brent_kung_exclusive_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op) {
    check_brent_kung_section_size(section_size);
    // TODO 5: launch brent_kung_exclusive_kernel the same way, with the padded buffer's size.
}

#endif  // SCANLAB_LAB_04_BRENT_KUNG_CU_INCLUDED
