// BEGIN SOLUTION
// Lab 05 reference solution: the three-phase scan of sections larger than a block.
//
// A block of T threads scans a section of S = T * C elements (C = elements_per_thread), so
// the section size is limited by shared memory, not by the number of threads:
//   load    the section into shared memory with corner turning: in round k, thread t
//           loads element k*T + t, so a warp reads 32 consecutive elements (coalesced);
//   phase 1 each thread scans its own C consecutive elements sequentially (C - 1
//           applications) and keeps its sub-section's total;
//   phase 2 the block scans the T totals with lab 02's in-place Kogge-Stone scan
//           (T*log2(T) - (T-1) applications);
//   phase 3 every thread but the first combines the total of all sub-sections before its
//           own with each of its C elements (C applications);
//   store   the section back to global memory with corner turning again.
// Per section: T*(C-1) + T*log2(T) - (T-1) + (T-1)*C applications, close to the sequential
// scan's S - 1 for large C, with log2(T) + C + 1 steps on a path instead of S - 1.
// END SOLUTION
// BEGIN PROMPT
//| // Lab 05: the three-phase scan of sections larger than a block.
//| //
//| // A block of threads_per_block threads scans a section of
//| // threads_per_block * elements_per_thread consecutive elements in shared memory.
//| // Sections are independent.
//| //
//| // Conventions (see README.md):
//| //   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//| //   - Positions of the last section past n take part as op.identity(); nothing is stored
//| //     for them.
// END PROMPT

#ifndef SCANLAB_LAB_05_THREE_PHASE_CU_INCLUDED  // later labs include this file, perhaps more than once
#define SCANLAB_LAB_05_THREE_PHASE_CU_INCLUDED

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>

#include "scanlab/cuda_check.hpp"
#include "scanlab/section_size.hpp"
#include "scanlab/shared_alignment.hpp"

// Lab 02's block-level scans: phase 2 is block_scan_inplace. Built with -I pointing at the
// folder that holds the labs (the grader uses the reference of lab 02 there, so a bug in
// lab 02 costs points in lab 02 only).
#include "02-kogge-stone/kogge_stone.cu"

// The dynamic shared memory a kernel may use without opting in to more: the section and
// the sub-section totals must fit in it.
constexpr std::size_t kMaxSharedBytes = 48 * 1024;

// One block of blockDim.x threads per section of blockDim.x * elements_per_thread elements.
template <class T, class Op>
__global__ void three_phase_kernel(const T* in, T* out, std::size_t n, unsigned elements_per_thread, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    const unsigned section_size = blockDim.x * elements_per_thread;
    T* const section = reinterpret_cast<T*>(shared_bytes);  // section_size elements
    T* const totals = section + section_size;               // blockDim.x elements, one per thread
    const std::size_t start = static_cast<std::size_t>(blockIdx.x) * section_size;
    // BEGIN SOLUTION
    // Load with corner turning: consecutive threads, consecutive elements.
    for (unsigned k = threadIdx.x; k < section_size; k += blockDim.x) {  //@ load-loop
        section[k] = start + k < n ? in[start + k] : op.identity();  //@ load
    }
    __syncthreads();  // the whole section is loaded before threads scan their sub-sections  //@ load-barrier

    // Phase 1: this thread's sub-section, sequentially.
    T* const mine = section + threadIdx.x * elements_per_thread;
    for (unsigned j = 1; j < elements_per_thread; ++j) mine[j] = op(mine[j - 1], mine[j]);  //@ phase1-combine
    totals[threadIdx.x] = mine[elements_per_thread - 1];  //@ phase1-total
    __syncthreads();  // every total is written before the block scans them  //@ phase1-barrier

    // Phase 2: the totals, with lab 02's block scan (it returns after a barrier).
    block_scan_inplace(totals, threadIdx.x, blockDim.x, op);

    // Phase 3: everything before this sub-section, in front of each of its elements.
    if (threadIdx.x > 0) {  //@ phase3-guard
        const T before = totals[threadIdx.x - 1];  //@ phase3-before
        for (unsigned j = 0; j < elements_per_thread; ++j) mine[j] = op(before, mine[j]);  //@ phase3-combine
    }
    __syncthreads();  // every sub-section is final before the corner-turned store  //@ phase3-barrier

    for (unsigned k = threadIdx.x; k < section_size; k += blockDim.x) {
        if (start + k < n) out[start + k] = section[k];  //@ store
    }
    // END SOLUTION
    // BEGIN PROMPT
    //|
    //| // TODO 1: load the section into `section` (identity past n) so that the threads of a
    //| //         warp read consecutive elements.
    //| // TODO 2: phase 1, each thread scans its own elements_per_thread consecutive elements
    //| //         sequentially and writes its sub-section's total to `totals`.
    //| // TODO 3: phase 2, scan `totals` with your in-place block scan from lab 02.
    //| // TODO 4: phase 3, each thread adds what comes before its sub-section.
    //| // TODO 5: store the positions below n, warp-consecutive again.
    // END PROMPT
}

// The section and one total per thread.
template <class T>
std::size_t three_phase_shared_bytes(unsigned threads_per_block, unsigned elements_per_thread) {
    return (static_cast<std::size_t>(threads_per_block) * elements_per_thread + threads_per_block) * sizeof(T);
}

template <class T, class Op>
void three_phase_scan(const T* d_in, T* d_out, std::size_t n, unsigned threads_per_block,
                      unsigned elements_per_thread, Op op) {
    check_section_size(threads_per_block);  // lab 02: a power of two in [32, 1024]
    const std::size_t shared_bytes = three_phase_shared_bytes<T>(threads_per_block, elements_per_thread);
    if (elements_per_thread == 0 || shared_bytes > kMaxSharedBytes) {
        throw std::invalid_argument("elements_per_thread must be at least 1, and a section and its totals must fit in 48 KiB of shared memory");
    }
    // BEGIN SOLUTION
    if (n == 0) return;  // a launch with no blocks is an invalid configuration
    const std::size_t section_size = static_cast<std::size_t>(threads_per_block) * elements_per_thread;
    const auto sections = static_cast<unsigned>(scanlab::ceil_div(n, section_size));
    three_phase_kernel<<<sections, threads_per_block, shared_bytes>>>(d_in, d_out, n, elements_per_thread, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 6: launch three_phase_kernel with one block of threads_per_block threads per
    //| //         section and shared_bytes of dynamic shared memory; check the launch.
    // END PROMPT
}

#endif  // SCANLAB_LAB_05_THREE_PHASE_CU_INCLUDED
