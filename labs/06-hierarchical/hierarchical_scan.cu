// Lab 06: the hierarchical scan of an array of any length.
//
// Conventions (see README.md):
//   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//   - The section scan comes from an earlier lab, included below, not copied here.

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

    // TODO 1: load, scan with your block scan from lab 04 (or another earlier lab), store,
    //         and write the section's total to totals[blockIdx.x] when totals is not null.
}

// Kernel 3: block b combines the scanned total of sections 0 .. b (scanned_totals[b]) with
// every element of section b + 1.
template <class T, class Op>
__global__ void add_preceding_totals_kernel(T* out, const T* scanned_totals, std::size_t n, Op op) {
    const unsigned section_size = 2 * blockDim.x;
    // TODO 3: combine what comes before section blockIdx.x + 1 with each of its elements
    //         below n.
}

// The element counts of the levels: n, then one total per section of the level below, up to
// the first level that fits in one section.
inline std::vector<std::size_t> level_sizes(std::size_t n, unsigned section_size) {
    std::vector<std::size_t> sizes{n};
    while (sizes.back() > section_size) sizes.push_back(scanlab::ceil_div(sizes.back(), section_size));
    return sizes;
}

template <class T, class Op>
void hierarchical_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op) {
    check_brent_kung_section_size(section_size);  // lab 04: a power of two in [64, 2048]
    if (n == 0) return;
    const std::vector<std::size_t> levels = level_sizes(n, section_size);
    const unsigned threads = section_size / 2;
    const std::size_t shared_bytes = section_size * sizeof(T);
    // TODO 2: allocate the totals of every level above the input (once per call), scan each
    //         level's sections with scan_sections_kernel going up, add the preceding totals
    //         with add_preceding_totals_kernel going down, check every launch, and free what
    //         you allocated. level_sizes(n, section_size) gives the size of each level.
}

#endif  // SCANLAB_LAB_06_HIERARCHICAL_CU_INCLUDED
