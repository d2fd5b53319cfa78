// Lab 02: Kogge-Stone inclusive scan of independent sections, in place and double-buffered.
//
// One block of `section_size` threads scans one section of `section_size` consecutive
// elements, one element per thread, in shared memory. Sections are independent: element i
// of the output combines the inputs from the start of its section up to i.
//
// Conventions (see README.md):
//   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//   - Positions of the last section past n take part as op.identity(); nothing is stored
//     for them.

#ifndef SCANLAB_LAB_02_KOGGE_STONE_CU_INCLUDED  // later labs include this file, perhaps more than once
#define SCANLAB_LAB_02_KOGGE_STONE_CU_INCLUDED

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>

#include "scanlab/cuda_check.hpp"
#include "scanlab/section_size.hpp"
#include "scanlab/shared_alignment.hpp"

// ---------------------------------------------------------------------------------------
// Block level: scan section[0 .. section_size) in shared memory, one element per thread.
// Later labs reuse these two functions by including this file: when they return, every
// thread of the block sees the whole scanned section.

template <class T, class Op>
__device__ void block_scan_inplace(T* section, unsigned tid, unsigned section_size, Op op) {
    // TODO 1: the Kogge-Stone steps (stride 1, 2, 4, ...) on `section`, in place, so that no
    //         thread ever reads an element another thread may be writing.
}

// Returns the buffer (front or back) that holds the result.
template <class T, class Op>
__device__ T* block_scan_double_buffer(T* front, T* back, unsigned tid, unsigned section_size, Op op) {
    // TODO 2: the Kogge-Stone steps, each reading one buffer and writing the other, with as
    //         few barriers as that allows. Return the buffer that holds the result.
    return front;
}

// ---------------------------------------------------------------------------------------
// Kernels: one block per section, blockDim.x == section size.

template <class T, class Op>
__global__ void kogge_stone_inplace_kernel(const T* in, T* out, std::size_t n, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    T* const section = reinterpret_cast<T*>(shared_bytes);  // blockDim.x elements

    // TODO 3: load this block's section of `in` into `section` (identity past n), scan it
    //         with block_scan_inplace, and store the positions below n to `out`.
}

template <class T, class Op>
__global__ void kogge_stone_double_buffer_kernel(const T* in, T* out, std::size_t n, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    T* const front = reinterpret_cast<T*>(shared_bytes);  // blockDim.x elements
    T* const back = front + blockDim.x;                   // blockDim.x more

    // TODO 3: load this block's section of `in` into `front` (identity past n), scan it
    //         with block_scan_double_buffer, and store the positions below n to `out`.
}

inline void check_section_size(unsigned section_size) {
    if (!scanlab::is_valid_section_size(section_size)) {
        throw std::invalid_argument("section_size must be a power of two in [32, 1024]");
    }
}

template <class T, class Op>
void kogge_stone_inplace_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op) {
    check_section_size(section_size);
    // TODO 4: launch kogge_stone_inplace_kernel with one block of section_size threads per
    //         section (the last one may be partial) and the dynamic shared memory it needs,
    //         then check the launch with SCANLAB_CUDA_CHECK(cudaGetLastError()).
}

template <class T, class Op>
void kogge_stone_double_buffer_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op) {
    check_section_size(section_size);
    // TODO 4: launch kogge_stone_double_buffer_kernel like the in-place kernel, with the
    //         dynamic shared memory of both buffers.
}

#endif  // SCANLAB_LAB_02_KOGGE_STONE_CU_INCLUDED
