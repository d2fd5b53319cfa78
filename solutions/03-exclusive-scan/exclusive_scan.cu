// BEGIN SOLUTION
// Lab 03 reference solution: exclusive scan, natively and by conversion.
//
// kogge_stone_exclusive_scan shifts each section right by one element as it loads it (the
// first position gets the identity) and then runs lab 02's double-buffered inclusive scan:
// same steps, same S*log2(S) - (S-1) applications per section. The two conversions are
// element-wise maps over the whole array: shifting costs no application of the operator,
// going back costs one per element (the exclusive prefix combined with the element itself).
// END SOLUTION
// BEGIN PROMPT
//| // Lab 03: exclusive scan, natively with Kogge-Stone and by converting to and from inclusive.
//| //
//| // Conventions (see README.md):
//| //   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//| //   - The exclusive scan of a section starts with op.identity():
//| //       out[start] = identity, out[start + k] = in[start] op ... op in[start + k - 1].
//| //   - Positions of the last section past n take part as op.identity(); nothing is stored
//| //     for them.
// END PROMPT

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

// BEGIN SOLUTION
// ---------------------------------------------------------------------------------------
// Kernels.

// END SOLUTION
constexpr unsigned kConvertBlockSize = 256;   // element-wise maps: any multiple of a warp
// BEGIN SOLUTION
constexpr unsigned kMaxConvertBlocks = 65535; // grid-stride loops cover any n beyond this

// One block per section, blockDim.x == section size. Position k of the section holds the
// input element just before it, position 0 the identity: the inclusive scan of that
// shifted section is the exclusive scan of the original. Positions past n get the identity.
// END SOLUTION
// BEGIN PROMPT
//| constexpr unsigned kMaxConvertBlocks = 65535; // larger arrays need each thread to do more than one element
//|
//| // One block per section, blockDim.x == section size, one element per thread.
// END PROMPT
template <class T, class Op>
__global__ void kogge_stone_exclusive_kernel(const T* in, T* out, std::size_t n, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    T* const front = reinterpret_cast<T*>(shared_bytes);  // blockDim.x elements  //@ front
    // BEGIN SOLUTION
    T* const back = front + blockDim.x;

    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const bool has_predecessor = threadIdx.x > 0 && i - 1 < n;  //@ has-predecessor
    front[threadIdx.x] = has_predecessor ? in[i - 1] : op.identity();  //@ shifted-load
    __syncthreads();  // the whole section is loaded before any thread reads a neighbour  //@ load-barrier

    const T* const result = block_scan_double_buffer(front, back, threadIdx.x, blockDim.x, op);
    if (i < n) out[i] = result[threadIdx.x];  //@ guarded-store
    // END SOLUTION
    // BEGIN PROMPT
    //| T* const back = front + blockDim.x;                   // blockDim.x more, if you want them
    //|
    //| // TODO 1: load the section so that a Kogge-Stone inclusive scan of shared memory yields
    //| //         the exclusive scan of the section.
    //| // TODO 2: scan it with your block scan from lab 02.
    //| // TODO 3: store the positions below n to `out`.
    // END PROMPT
}

// BEGIN PROMPT
//| // exclusive[0] = identity, exclusive[i] = inclusive[i - 1]: the whole array, not sections.
// END PROMPT
template <class T, class Op>
__global__ void inclusive_to_exclusive_kernel(const T* inclusive, T* exclusive, std::size_t n, Op op) {
    // BEGIN SOLUTION
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {  //@ shift-loop
        exclusive[i] = i == 0 ? op.identity() : inclusive[i - 1];  //@ shift
    }
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO: write every exclusive[i], i < n, whatever n is relative to the grid size.
    // END PROMPT
}

// BEGIN PROMPT
//| // inclusive[i] from exclusive[i] and in[i]: the whole array, not sections.
// END PROMPT
template <class T, class Op>
__global__ void exclusive_to_inclusive_kernel(const T* in, const T* exclusive, T* inclusive, std::size_t n, Op op) {
    // BEGIN SOLUTION
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {  //@ unshift-loop
        inclusive[i] = op(exclusive[i], in[i]);  //@ unshift
    }
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO: write every inclusive[i], i < n, whatever n is relative to the grid size.
    // END PROMPT
}

// BEGIN SOLUTION
// ---------------------------------------------------------------------------------------
// Host entries.

inline unsigned convert_grid_size(std::size_t n) {
    return static_cast<unsigned>(std::min<std::size_t>(scanlab::ceil_div(n, kConvertBlockSize), kMaxConvertBlocks));
}

// END SOLUTION

template <class T, class Op>
void kogge_stone_exclusive_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op) {
    check_section_size(section_size);
    // BEGIN SOLUTION
    if (n == 0) return;  // a launch with no blocks is an invalid configuration
    constexpr std::size_t kBuffers = 2;
    const std::size_t shared_bytes = kBuffers * section_size * sizeof(T);
    const auto sections = static_cast<unsigned>(scanlab::ceil_div(n, section_size));
    kogge_stone_exclusive_kernel<<<sections, section_size, shared_bytes>>>(d_in, d_out, n, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 4: launch kogge_stone_exclusive_kernel with one block of section_size threads per
    //| //         section (the last one may be partial) and the dynamic shared memory it needs,
    //| //         then check the launch with SCANLAB_CUDA_CHECK(cudaGetLastError()).
    // END PROMPT
}

// BEGIN SOLUTION
// Reads d_inclusive[i - 1] while writing d_exclusive[i]: the two must not overlap.
// END SOLUTION
template <class T, class Op>
void inclusive_to_exclusive(const T* d_inclusive, T* d_exclusive, std::size_t n, Op op) {
    // BEGIN SOLUTION
    if (n == 0) return;
    inclusive_to_exclusive_kernel<<<convert_grid_size(n), kConvertBlockSize>>>(d_inclusive, d_exclusive, n, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 5: launch inclusive_to_exclusive_kernel with blocks of kConvertBlockSize threads:
    //| //         enough blocks to give every element a thread, but never more than
    //| //         kMaxConvertBlocks. Check the launch as above.
    // END PROMPT
}

template <class T, class Op>
void exclusive_to_inclusive(const T* d_in, const T* d_exclusive, T* d_inclusive, std::size_t n, Op op) {
    // BEGIN SOLUTION
    if (n == 0) return;
    exclusive_to_inclusive_kernel<<<convert_grid_size(n), kConvertBlockSize>>>(d_in, d_exclusive, d_inclusive, n, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 5: launch exclusive_to_inclusive_kernel the same way.
    // END PROMPT
}

#endif  // SCANLAB_LAB_03_EXCLUSIVE_SCAN_CU_INCLUDED
