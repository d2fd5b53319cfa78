// BEGIN SOLUTION
// Lab 07 reference solution: the single-pass stream scan with adjacent synchronization.
//
// One kernel. Each block takes a tile number from an atomic ticket (the order blocks start
// in, not blockIdx.x), scans its tile with lab 04's Brent-Kung block scan, then thread 0
// waits until the tile before has published the combination of everything up to its end,
// publishes the same for its own tile (data, fence, then flag), and the block finishes its
// tile with what came before. Every block waits only for a block that started before it,
// so the chain makes progress whatever the order blocks start in and however few fit on
// the device. Each element is read once and written once: the hierarchical scan's second
// pass over the data is gone.
// END SOLUTION
// BEGIN PROMPT
//| // Lab 07: the single-pass stream scan, one kernel for an array of any length.
//| //
//| // Conventions (see README.md):
//| //   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//| //   - The tile scan comes from an earlier lab, included below, not copied here.
// END PROMPT

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
    // BEGIN SOLUTION
    if (threadIdx.x == 0) tile = atomicAdd(handoff.ticket, 1u);  //@ ticket
    __syncthreads();  // every thread knows the tile  //@ ticket-barrier
    const std::size_t start = static_cast<std::size_t>(tile) * tile_size;

    for (unsigned k = threadIdx.x; k < tile_size; k += blockDim.x) {
        section[k] = start + k < n ? in[start + k] : op.identity();
    }
    __syncthreads();  // the whole tile is loaded before the block scans it
    block_scan_brent_kung(section, threadIdx.x, tile_size, op);

    if (threadIdx.x == 0) {
        T prefix = op.identity();
        if (tile > 0) {
            const volatile unsigned* ready = handoff.published;  //@ flag-read
            while (ready[tile - 1] == 0) {  // the tile before started earlier: it will publish
            }
            __threadfence();  // what the tile before published is read after its flag
            prefix = handoff.inclusive_prefix[tile - 1];
        }
        handoff.inclusive_prefix[tile] = op(prefix, section[tile_size - 1]);
        __threadfence();  // the inclusive prefix is visible before the flag that announces it  //@ publish-fence
        atomicExch(&handoff.published[tile], 1u);
        *before = prefix;
    }
    __syncthreads();  // `before` is set  //@ before-barrier
    for (unsigned k = threadIdx.x; k < tile_size; k += blockDim.x) {
        if (start + k < n) out[start + k] = tile > 0 ? op(*before, section[k]) : section[k];  //@ finish
    }
    // END SOLUTION
    // BEGIN PROMPT
    //|
    //| // TODO 1: take this block's tile number from handoff.ticket (one thread, shared with the
    //| //         block through `tile`).
    //| // TODO 2: load the tile, scan it with your block scan from lab 04.
    //| // TODO 3: one thread waits until the tile before has published, publishes this tile's
    //| //         inclusive prefix (so that the next tile reads it only once it is complete),
    //| //         and shares what comes before this tile with the block through `before`.
    //| // TODO 4: store the tile, each element combined with what comes before it.
    // END PROMPT
}

template <class T, class Op>
void single_pass_scan(const T* d_in, T* d_out, std::size_t n, unsigned tile_size, Op op) {
    check_brent_kung_section_size(tile_size);  // lab 04: a power of two in [64, 2048]
    if (n == 0) return;
    const auto tiles = static_cast<unsigned>(scanlab::ceil_div(n, tile_size));
    const std::size_t shared_bytes = (tile_size + 1) * sizeof(T);
    // BEGIN SOLUTION
    Handoff<T> handoff{};
    SCANLAB_CUDA_CHECK(cudaMalloc(&handoff.inclusive_prefix, tiles * sizeof(T)));
    SCANLAB_CUDA_CHECK(cudaMalloc(&handoff.published, (tiles + 1) * sizeof(unsigned)));
    handoff.ticket = handoff.published + tiles;
    // Every call starts with no tile published and the ticket at 0.
    SCANLAB_CUDA_CHECK(cudaMemset(handoff.published, 0, (tiles + 1) * sizeof(unsigned)));  //@ reset
    single_pass_scan_kernel<<<tiles, tile_size / 2, shared_bytes>>>(d_in, d_out, n, handoff, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    SCANLAB_CUDA_CHECK(cudaFree(handoff.published));
    SCANLAB_CUDA_CHECK(cudaFree(handoff.inclusive_prefix));
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 5: allocate the hand-off (a prefix and a flag per tile, and the ticket), reset the
    //| //         flags and the ticket, launch one block of tile_size / 2 threads per tile with
    //| //         shared_bytes of dynamic shared memory, check the launch, free what you allocated.
    // END PROMPT
}

#endif  // SCANLAB_LAB_07_SINGLE_PASS_CU_INCLUDED
