// Lab 07: the single-pass stream scan, one kernel for an array of any length.
//
// Conventions (see README.md):
//   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//   - The tile's load, reduction and scan come from lab 06, included below, not copied
//     here.

#ifndef SCANLAB_LAB_07_SINGLE_PASS_CU_INCLUDED  // later labs include this file, perhaps more than once
#define SCANLAB_LAB_07_SINGLE_PASS_CU_INCLUDED

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>

#include "scanlab/cuda_check.hpp"
#include "scanlab/section_size.hpp"
#include "scanlab/shared_alignment.hpp"

// Lab 06's tile toolkit: load_items, reduce_items, block_reduce, block_exclusive_scan,
// store_items, the tile's shape and its shared memory. Built with -I pointing at the folder
// that holds the labs (the grader uses the reference of lab 06 there, so a bug in lab 06 costs
// points in lab 06 only).
#include "06-hierarchical/hierarchical_scan.cu"

// Values of at most this size travel with their flag in one 64-bit word.
inline constexpr std::size_t kPackedValueBytes = 4;
template <class T>
inline constexpr bool kPacksWithFlag = sizeof(T) <= kPackedValueBytes;
inline constexpr unsigned long long kPublishedBit = 1ULL << 32;  // above the value's bits

// What the blocks of one call share in device memory, reset before every launch.
template <class T>
struct Handoff {
    // Per tile, values of at most 4 bytes: 0 until published, then kPublishedBit | the bits
    // of the tile's inclusive prefix (everything up to the end of the tile).
    unsigned long long* packed;
    // Per tile, wider values: the inclusive prefix, and a flag set to 1 once it is visible.
    T* inclusive_prefix;
    unsigned* published;
    unsigned* ticket;  // the next tile number to hand out
};

// Thread 0 of the block of tile `tile`: makes `prefix` visible to the block of the next tile.
template <class T>
__device__ void publish_prefix(const Handoff<T>& handoff, unsigned tile, T prefix) {
    // TODO 3: values of at most 4 bytes: one atomic store of the flag bit and the value's
    //         bits to handoff.packed[tile]. Wider values: the prefix, a fence, then the flag.
}

// Thread 0 of the block of tile `tile` + 1: waits until `tile` has published, and returns
// what it published.
template <class T>
__device__ T wait_for_prefix(const Handoff<T>& handoff, unsigned tile) {
    // TODO 4: read the flag through a volatile pointer until it is set (for values of at most
    //         4 bytes, the flag bit of handoff.packed[tile], with the value beside it), and
    //         return what the tile published.
    return T{};
}

template <class T, class Op>
__global__ void single_pass_scan_kernel(const T* in, T* out, std::size_t n, Handoff<T> handoff, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    const Warp warp = cg::tiled_partition<kWarpSize>(cg::this_thread_block());
    const TileShared<T> shared = tile_shared<T>(shared_bytes, warp);
    T* const before = shared.warp_values + warp.meta_group_size();  // one element: what comes before the tile
    __shared__ unsigned tile;                                       // this block's tile number
    T items[kItemsPerThread];

    // TODO 1: take this block's tile number from handoff.ticket (one thread, shared with the
    //         block through `tile`).
    // TODO 2: load the tile and reduce it with lab 06's block_reduce.
    // TODO 5: one thread waits for the tile before, publishes this tile's inclusive prefix,
    //         and shares what comes before this tile with the block through `before`.
    // TODO 6: scan the tile from `before` (lab 06's block_exclusive_scan) and store it.
}

template <class T, class Op>
void single_pass_scan(const T* d_in, T* d_out, std::size_t n, unsigned tile_size, Op op) {
    check_tile_size<T>(tile_size);  // lab 06: 32 to 1024 threads of kItemsPerThread elements
    if (n == 0) return;
    const auto tiles = static_cast<unsigned>(scanlab::ceil_div(n, tile_size));
    const unsigned threads = tile_size / kItemsPerThread;
    const std::size_t shared_bytes = tile_shared_bytes<T>(threads) + sizeof(T);  // and `before`
    // TODO 7: allocate the hand-off (per tile a packed word, or a prefix and a flag, and the
    //         ticket), reset it, launch one block of `threads` threads per tile with
    //         shared_bytes of dynamic shared memory, check the launch, free what you allocated.
}

#endif  // SCANLAB_LAB_07_SINGLE_PASS_CU_INCLUDED
