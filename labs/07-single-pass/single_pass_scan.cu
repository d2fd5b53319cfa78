// Lab 07: the single-pass stream scan, one kernel for an array of any length.
//
// Conventions (see README.md):
//   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//   - The tile scan comes from an earlier lab, included below, not copied here.

#ifndef SCANLAB_LAB_07_SINGLE_PASS_CU_INCLUDED  // later labs include this file, perhaps more than once
#define SCANLAB_LAB_07_SINGLE_PASS_CU_INCLUDED

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>

#include "scanlab/cuda_check.hpp"
#include "scanlab/section_size.hpp"
#include "scanlab/shared_alignment.hpp"

// Lab 04's Brent-Kung block scan (block_scan_brent_kung, two elements per thread). Built
// with -I pointing at the folder that holds the labs (the grader uses the reference of
// lab 04 there, so a bug in lab 04 costs points in lab 04 only).
#include "04-brent-kung/brent_kung.cu"

// What the blocks of one call share in device memory, reset before every launch.
template <class T>
struct Handoff {
    T* inclusive_prefix;  // per tile: everything up to the end of the tile, once published
    unsigned* published;  // per tile: 1 once its inclusive prefix is visible
    unsigned* ticket;     // the next tile number to hand out
};

template <class T, class Op>
__global__ void single_pass_scan_kernel(const T* in, T* out, std::size_t n, Handoff<T> handoff, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    const unsigned tile_size = 2 * blockDim.x;
    T* const section = reinterpret_cast<T*>(shared_bytes);  // tile_size elements
    T* const before = section + tile_size;                  // one element: what comes before the tile
    __shared__ unsigned tile;                               // this block's tile number

    // TODO 1: take this block's tile number from handoff.ticket (one thread, shared with the
    //         block through `tile`).
    // TODO 2: load the tile, scan it with your block scan from lab 04.
    // TODO 3: one thread waits until the tile before has published, publishes this tile's
    //         inclusive prefix (so that the next tile reads it only once it is complete),
    //         and shares what comes before this tile with the block through `before`.
    // TODO 4: store the tile, each element combined with what comes before it.
}

template <class T, class Op>
void single_pass_scan(const T* d_in, T* d_out, std::size_t n, unsigned tile_size, Op op) {
    check_brent_kung_section_size(tile_size);  // lab 04: a power of two in [64, 2048]
    if (n == 0) return;
    const auto tiles = static_cast<unsigned>(scanlab::ceil_div(n, tile_size));
    const std::size_t shared_bytes = (tile_size + 1) * sizeof(T);
    // TODO 5: allocate the hand-off (a prefix and a flag per tile, and the ticket), reset the
    //         flags and the ticket, launch one block of tile_size / 2 threads per tile with
    //         shared_bytes of dynamic shared memory, check the launch, free what you allocated.
}

#endif  // SCANLAB_LAB_07_SINGLE_PASS_CU_INCLUDED
