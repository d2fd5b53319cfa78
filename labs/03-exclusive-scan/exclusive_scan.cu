// Lab 03: exclusive scan, natively with Kogge-Stone and by converting to and from inclusive.
//
// Conventions (see README.md):
//   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//   - The exclusive scan of a section starts with op.identity():
//       out[start] = identity, out[start + k] = in[start] op ... op in[start + k - 1].
//   - Positions of the last section past n take part as op.identity(); nothing is stored
//     for them.

#ifndef SCANLAB_LAB_03_EXCLUSIVE_SCAN_CU_INCLUDED  // later labs include this file, perhaps more than once
#define SCANLAB_LAB_03_EXCLUSIVE_SCAN_CU_INCLUDED

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "scanlab/cuda_check.hpp"
#include "scanlab/section_size.hpp"
#include "scanlab/shared_alignment.hpp"

// Lab 02's block-level scans (block_scan_double_buffer, block_scan_inplace) and its host
// helpers. Built with -I pointing at the folder that holds the labs (the grader uses the
// reference of lab 02 there, so a bug in lab 02 costs points in lab 02 only).
#include "02-kogge-stone/kogge_stone.cu"

constexpr unsigned kConvertBlockSize = 256;   // element-wise maps: any multiple of a warp
constexpr unsigned kMaxConvertBlocks = 65535; // larger arrays need each thread to do more than one element

// One block per section, blockDim.x == section size, one element per thread.
template <class T, class Op>
__global__ void kogge_stone_exclusive_kernel(const T* in, T* out, std::size_t n, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    T* const front = reinterpret_cast<T*>(shared_bytes);  // blockDim.x elements
    T* const back = front + blockDim.x;                   // blockDim.x more, if you want them

    // TODO 1: load the section so that a Kogge-Stone inclusive scan of shared memory yields
    //         the exclusive scan of the section.
    // TODO 2: scan it with your block scan from lab 02.
    // TODO 3: store the positions below n to `out`.
}

// exclusive[0] = identity, exclusive[i] = inclusive[i - 1]: the whole array, not sections.
template <class T, class Op>
__global__ void inclusive_to_exclusive_kernel(const T* inclusive, T* exclusive, std::size_t n, Op op) {
    // TODO: write every exclusive[i], i < n, whatever n is relative to the grid size.
}

// inclusive[i] from exclusive[i] and in[i]: the whole array, not sections.
template <class T, class Op>
__global__ void exclusive_to_inclusive_kernel(const T* in, const T* exclusive, T* inclusive, std::size_t n, Op op) {
    // TODO: write every inclusive[i], i < n, whatever n is relative to the grid size.
}


template <class T, class Op>
void kogge_stone_exclusive_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op) {
    check_section_size(section_size);
    // TODO 4: launch kogge_stone_exclusive_kernel with one block of section_size threads per
    //         section (the last one may be partial) and the dynamic shared memory it needs,
    //         then check the launch with SCANLAB_CUDA_CHECK(cudaGetLastError()).
}

template <class T, class Op>
void inclusive_to_exclusive(const T* d_inclusive, T* d_exclusive, std::size_t n, Op op) {
    // TODO 5: launch inclusive_to_exclusive_kernel with blocks of kConvertBlockSize threads:
    //         enough blocks to give every element a thread, but never more than
    //         kMaxConvertBlocks. Check the launch as above.
}

template <class T, class Op>
void exclusive_to_inclusive(const T* d_in, const T* d_exclusive, T* d_inclusive, std::size_t n, Op op) {
    // TODO 5: launch exclusive_to_inclusive_kernel the same way.
}

#endif  // SCANLAB_LAB_03_EXCLUSIVE_SCAN_CU_INCLUDED
