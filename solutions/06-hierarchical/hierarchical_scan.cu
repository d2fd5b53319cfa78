// BEGIN SOLUTION
// Lab 06 reference solution: the hierarchical scan of an array of any length.
//
// Level 0 is the input. Kernel 1 scans every section of a level with lab 04's Brent-Kung
// block scan and writes each section's total to the next level; the levels shrink by the
// section size until one section holds a whole level. Kernel 3 then walks back down: every
// section but the first of a level gets the scanned total of all sections before it (from
// the level above, which is scanned by then). The top level's scan is kernel 2 of the
// textbook's three, run by the same kernel 1.
//
// Operator applications: a level of m elements costs ceil(m/S) Brent-Kung sections
// (2S - 2 - log2(S) each) going up and m - S coming down; with S >= 64, levels shrink by 64
// at least, and for n >= S the total stays below 4n - 3.
// END SOLUTION
// BEGIN PROMPT
//| // Lab 06: the hierarchical scan of an array of any length.
//| //
//| // Conventions (see README.md):
//| //   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//| //   - The section scan comes from an earlier lab, included below, not copied here.
// END PROMPT

#ifndef SCANLAB_LAB_06_HIERARCHICAL_CU_INCLUDED  // later labs include this file, perhaps more than once
#define SCANLAB_LAB_06_HIERARCHICAL_CU_INCLUDED

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "scanlab/cuda_check.hpp"
#include "scanlab/section_size.hpp"
#include "scanlab/shared_alignment.hpp"

// Lab 04's Brent-Kung block scan (block_scan_brent_kung, two elements per thread). Built
// with -I pointing at the folder that holds the labs (the grader uses the reference of
// lab 04 there, so a bug in lab 04 costs points in lab 04 only).
#include "04-brent-kung/brent_kung.cu"

// Kernel 1: scans section blockIdx.x of `in` (section size 2 * blockDim.x) into `out`, and
// writes the section's total to totals[blockIdx.x] unless totals is null.
template <class T, class Op>
__global__ void scan_sections_kernel(const T* in, T* out, T* totals, std::size_t n, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    T* const section = reinterpret_cast<T*>(shared_bytes);  // 2 * blockDim.x elements
    const unsigned section_size = 2 * blockDim.x;
    const std::size_t start = static_cast<std::size_t>(blockIdx.x) * section_size;
    // BEGIN SOLUTION
    for (unsigned k = threadIdx.x; k < section_size; k += blockDim.x) {
        section[k] = start + k < n ? in[start + k] : op.identity();
    }
    __syncthreads();  // the whole section is loaded before the block scans it  //@ load-barrier
    block_scan_brent_kung(section, threadIdx.x, section_size, op);
    for (unsigned k = threadIdx.x; k < section_size; k += blockDim.x) {
        if (start + k < n) out[start + k] = section[k];  //@ store
    }
    // The last element holds the section's total (identities past n change nothing).
    if (totals != nullptr && threadIdx.x == blockDim.x - 1) totals[blockIdx.x] = section[section_size - 1];  //@ total
    // END SOLUTION
    // BEGIN PROMPT
    //|
    //| // TODO 1: load, scan with your block scan from lab 04 (or another earlier lab), store,
    //| //         and write the section's total to totals[blockIdx.x] when totals is not null.
    // END PROMPT
}

// Kernel 3: block b combines the scanned total of sections 0 .. b (scanned_totals[b]) with
// every element of section b + 1.
template <class T, class Op>
__global__ void add_preceding_totals_kernel(T* out, const T* scanned_totals, std::size_t n, Op op) {
    const unsigned section_size = 2 * blockDim.x;
    // BEGIN SOLUTION
    const std::size_t start = (static_cast<std::size_t>(blockIdx.x) + 1) * section_size;  //@ add-start
    const T before = scanned_totals[blockIdx.x];
    for (unsigned k = threadIdx.x; k < section_size; k += blockDim.x) {
        if (start + k < n) out[start + k] = op(before, out[start + k]);  //@ add
    }
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 3: combine what comes before section blockIdx.x + 1 with each of its elements
    //| //         below n.
    // END PROMPT
}

// The element counts of the levels: n, then one total per section of the level below, up to
// the first level that fits in one section.
inline std::vector<std::size_t> level_sizes(std::size_t n, unsigned section_size) {
    std::vector<std::size_t> sizes{n};
    while (sizes.back() > section_size) sizes.push_back(scanlab::ceil_div(sizes.back(), section_size));  //@ level-loop
    return sizes;
}

template <class T, class Op>
void hierarchical_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op) {
    check_brent_kung_section_size(section_size);  // lab 04: a power of two in [64, 2048]
    if (n == 0) return;
    const std::vector<std::size_t> levels = level_sizes(n, section_size);
    const unsigned threads = section_size / 2;
    const std::size_t shared_bytes = section_size * sizeof(T);
    // BEGIN SOLUTION
    // One buffer for the totals of every level above the input, allocated once per call.
    std::size_t scratch_elements = 0;
    for (std::size_t l = 1; l < levels.size(); ++l) scratch_elements += levels[l];
    T* scratch = nullptr;
    if (scratch_elements > 0) SCANLAB_CUDA_CHECK(cudaMalloc(&scratch, scratch_elements * sizeof(T)));
    std::vector<T*> level_data{d_out};  // level l > 0 lives in scratch, scanned in place
    for (std::size_t l = 1, offset = 0; l < levels.size(); offset += levels[l], ++l) level_data.push_back(scratch + offset);

    // Up: scan each level's sections, their totals form the next level.
    for (std::size_t l = 0; l < levels.size(); ++l) {
        const T* source = l == 0 ? d_in : level_data[l];
        T* totals = l + 1 < levels.size() ? level_data[l + 1] : nullptr;
        const auto sections = static_cast<unsigned>(scanlab::ceil_div(levels[l], section_size));
        scan_sections_kernel<<<sections, threads, shared_bytes>>>(source, level_data[l], totals, levels[l], op);
        SCANLAB_CUDA_CHECK(cudaGetLastError());
    }
    // Down: every level below the top gets the totals before each of its sections.
    for (std::size_t l = levels.size() - 1; l-- > 0;) {
        const auto later_sections = static_cast<unsigned>(scanlab::ceil_div(levels[l], section_size) - 1);  //@ later-sections
        add_preceding_totals_kernel<<<later_sections, threads>>>(level_data[l], level_data[l + 1], levels[l], op);
        SCANLAB_CUDA_CHECK(cudaGetLastError());
    }
    if (scratch != nullptr) SCANLAB_CUDA_CHECK(cudaFree(scratch));  //@ free
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 2: allocate the totals of every level above the input (once per call), scan each
    //| //         level's sections with scan_sections_kernel going up, add the preceding totals
    //| //         with add_preceding_totals_kernel going down, check every launch, and free what
    //| //         you allocated. level_sizes(n, section_size) gives the size of each level.
    // END PROMPT
}

#endif  // SCANLAB_LAB_06_HIERARCHICAL_CU_INCLUDED
