// BEGIN SOLUTION
// Lab 02 reference solution: Kogge-Stone inclusive scan of independent sections.
//
// Layering as in CUB: a block-level scan of one section in shared memory (two variants),
// the kernel that moves a section between global and shared memory, and the host entry that
// checks its arguments and launches one block per section.
//
// Both variants apply the operator S*log2(S) - (S-1) times per section of S elements: step
// `stride` combines every element with the one `stride` places before it, except the first
// `stride` elements, which already hold their final value. Output i is ready after
// ceil(log2(i + 1)) steps, which is what makes Kogge-Stone fast despite doing more work than
// the sequential scan's n - 1.
// END SOLUTION
// BEGIN PROMPT
//| // Lab 02: Kogge-Stone inclusive scan of independent sections, in place and double-buffered.
//| //
//| // One block of `section_size` threads scans one section of `section_size` consecutive
//| // elements, one element per thread, in shared memory. Sections are independent: element i
//| // of the output combines the inputs from the start of its section up to i.
//| //
//| // Conventions (see README.md):
//| //   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//| //   - Positions of the last section past n take part as op.identity(); nothing is stored
//| //     for them.
// END PROMPT

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

// BEGIN SOLUTION
// In place: one buffer. A thread reads section[tid - stride] while the thread `stride`
// places earlier may be updating that very element, so every step needs two barriers:
// all reads of the step finish before any write, all writes before the next step's reads.
// END SOLUTION
template <class T, class Op>
__device__ void block_scan_inplace(T* section, unsigned tid, unsigned section_size, Op op) {
    // BEGIN SOLUTION
    for (unsigned stride = 1; stride < section_size; stride *= 2) {  //@ inplace-step-loop
        const bool has_partner = tid >= stride;  //@ inplace-has-partner
        T partial = section[tid];
        if (has_partner) { partial = op(section[tid - stride], partial); }  //@ inplace-combine
        __syncthreads();  // every read of this step precedes every write  //@ inplace-read-write-barrier
        if (has_partner) section[tid] = partial;  //@ inplace-write
        __syncthreads();  // every write of this step precedes the next reads  //@ inplace-step-barrier
    }
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 1: the Kogge-Stone steps (stride 1, 2, 4, ...) on `section`, in place, so that no
    //| //         thread ever reads an element another thread may be writing.
    // END PROMPT
}

// BEGIN SOLUTION
// Double-buffered: each step reads one buffer and writes the other, so reads and writes of
// one step never touch the same element and a single barrier per step suffices. Costs a
// second buffer of shared memory.
// END SOLUTION
// Returns the buffer (front or back) that holds the result.
template <class T, class Op>
__device__ T* block_scan_double_buffer(T* front, T* back, unsigned tid, unsigned section_size, Op op) {
    // BEGIN SOLUTION
    for (unsigned stride = 1; stride < section_size; stride *= 2) {
        back[tid] = tid >= stride ? op(front[tid - stride], front[tid]) : front[tid];  //@ double-buffer-combine
        T* const written = back;
        back = front;
        front = written;
        __syncthreads();  // this step's writes precede the next step's reads  //@ double-buffer-step-barrier
    }
    return front;
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 2: the Kogge-Stone steps, each reading one buffer and writing the other, with as
    //| //         few barriers as that allows. Return the buffer that holds the result.
    //| return front;
    // END PROMPT
}

// ---------------------------------------------------------------------------------------
// Kernels: one block per section, blockDim.x == section size.

// BEGIN SOLUTION
// Positions past n are padded with the identity, so the last, partial section runs the same
// code as a full one; their results are never stored.
template <class T, class Op>
__device__ void load_section(const T* in, T* section, std::size_t n, Op op) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    section[threadIdx.x] = i < n ? in[i] : op.identity();  //@ guarded-load
}

template <class T>
__device__ void store_section(const T* section, T* out, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = section[threadIdx.x];  //@ guarded-store
}

// END SOLUTION
template <class T, class Op>
__global__ void kogge_stone_inplace_kernel(const T* in, T* out, std::size_t n, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    T* const section = reinterpret_cast<T*>(shared_bytes);  // blockDim.x elements  //@ inplace-section
    // BEGIN SOLUTION
    load_section(in, section, n, op);
    __syncthreads();  // the whole section is loaded before any thread reads a neighbour  //@ inplace-load-barrier
    block_scan_inplace(section, threadIdx.x, blockDim.x, op);
    store_section(section, out, n);
    // END SOLUTION
    // BEGIN PROMPT
    //|
    //| // TODO 3: load this block's section of `in` into `section` (identity past n), scan it
    //| //         with block_scan_inplace, and store the positions below n to `out`.
    // END PROMPT
}

template <class T, class Op>
__global__ void kogge_stone_double_buffer_kernel(const T* in, T* out, std::size_t n, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    T* const front = reinterpret_cast<T*>(shared_bytes);  // blockDim.x elements
    T* const back = front + blockDim.x;                   // blockDim.x more
    // BEGIN SOLUTION
    load_section(in, front, n, op);
    __syncthreads();  // the whole section is loaded before any thread reads a neighbour
    const T* const result = block_scan_double_buffer(front, back, threadIdx.x, blockDim.x, op);
    store_section(result, out, n);
    // END SOLUTION
    // BEGIN PROMPT
    //|
    //| // TODO 3: load this block's section of `in` into `front` (identity past n), scan it
    //| //         with block_scan_double_buffer, and store the positions below n to `out`.
    // END PROMPT
}

// BEGIN SOLUTION
// ---------------------------------------------------------------------------------------
// Host entries.

// END SOLUTION
inline void check_section_size(unsigned section_size) {
    if (!scanlab::is_valid_section_size(section_size)) {
        throw std::invalid_argument("section_size must be a power of two in [32, 1024]");
    }
}

// BEGIN SOLUTION
inline unsigned section_count(std::size_t n, unsigned section_size) {
    return static_cast<unsigned>(scanlab::ceil_div(n, section_size));  //@ section-count
}

// END SOLUTION
template <class T, class Op>
void kogge_stone_inplace_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op) {
    check_section_size(section_size);
    // BEGIN SOLUTION
    if (n == 0) return;  // a launch with no blocks is an invalid configuration
    const std::size_t shared_bytes = section_size * sizeof(T);
    kogge_stone_inplace_kernel<<<section_count(n, section_size), section_size, shared_bytes>>>(  //@ inplace-launch
        d_in, d_out, n, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 4: launch kogge_stone_inplace_kernel with one block of section_size threads per
    //| //         section (the last one may be partial) and the dynamic shared memory it needs,
    //| //         then check the launch with SCANLAB_CUDA_CHECK(cudaGetLastError()).
    // END PROMPT
}

template <class T, class Op>
void kogge_stone_double_buffer_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op) {
    check_section_size(section_size);
    // BEGIN SOLUTION
    if (n == 0) return;  // a launch with no blocks is an invalid configuration
    constexpr std::size_t kBuffers = 2;
    const std::size_t shared_bytes = kBuffers * section_size * sizeof(T);
    kogge_stone_double_buffer_kernel<<<section_count(n, section_size), section_size, shared_bytes>>>(  //@ double-buffer-launch
        d_in, d_out, n, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 4: launch kogge_stone_double_buffer_kernel like the in-place kernel, with the
    //| //         dynamic shared memory of both buffers.
    // END PROMPT
}

#endif  // SCANLAB_LAB_02_KOGGE_STONE_CU_INCLUDED
