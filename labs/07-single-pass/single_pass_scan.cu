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
#include <type_traits>

#include "scanlab/cuda_check.hpp"
#include "scanlab/section_size.hpp"
#include "scanlab/shared_alignment.hpp"

// Lab 06's tile toolkit: TilePolicy, load_items, reduce_items, block_reduce,
// block_exclusive_scan, scan_items, store_items, the tile's shared memory. Built with -I
// pointing at the folder that holds the labs (the grader uses the reference of lab 06 there,
// so a bug in lab 06 costs points in lab 06 only).
#include "06-hierarchical/hierarchical_scan.cu"

// Lab 07's tiles are lab 06's (8 items per thread, up to 1024 threads): large tiles keep the
// chain of hand-offs short.
using SinglePassPolicy = HierarchicalPolicy;

// ---- The tiles' status words: how a tile hands its inclusive prefix to the next ------------

// A value of at most 4 bytes travels with its flag in one 64-bit word: 0 until published, then
// kPublishedBit | the value's bits, written by one atomic store, so a reader sees both or
// neither and no fence is needed.
template <class T>
struct PackedStatusWord {
    static constexpr unsigned long long kPublishedBit = 1ULL << 32;  // above the value's bits
    unsigned long long word;

    // Thread 0 of the block of this word's tile: makes `prefix` visible to the block of the
    // next tile.
    __device__ void publish(T prefix) {
        // TODO 3: one atomic store of the flag bit and the prefix's bits to `word`.
    }

    // Thread 0 of the block of the next tile: waits until this tile has published, and returns
    // what it published.
    __device__ T wait() const {
        // TODO 4: read `word` through a volatile pointer until its flag bit is set, and return
        //         the value beside it.
        return T{};
    }
};

// A wider value (double, the affine maps) and a flag set to 1 once the value is visible.
template <class T>
struct FencedStatusWord {
    T prefix;
    unsigned published;

    // Thread 0 of the block of this word's tile: makes `value` visible to the block of the next
    // tile.
    __device__ void publish(T value) {
        // TODO 3: the prefix, a fence, then the flag (an atomic store).
    }

    // Thread 0 of the block of the next tile: waits until this tile has published, and returns
    // what it published.
    __device__ T wait() const {
        // TODO 4: read the flag through a volatile pointer until it is set, then the acquire
        //         fence (__threadfence() after the loop: without it the prefix may be read
        //         before the flag that announces it), and return the prefix.
        return T{};
    }
};

// The one place that chooses how a tile's prefix travels.
inline constexpr std::size_t kPackedValueBytes = 4;
template <class T>
using StatusWord = std::conditional_t<sizeof(T) <= kPackedValueBytes, PackedStatusWord<T>, FencedStatusWord<T>>;

// What the blocks of one call share in device memory, reset before every launch: a status word
// per tile, then the ticket.
template <class T>
struct Handoff {
    StatusWord<T>* words;
    unsigned* ticket;  // the next tile number to hand out

    static std::size_t bytes(unsigned tiles) { return tiles * sizeof(StatusWord<T>) + sizeof(unsigned); }
    static Handoff in(void* storage, unsigned tiles) {
        StatusWord<T>* const words = static_cast<StatusWord<T>*>(storage);
        return {words, reinterpret_cast<unsigned*>(words + tiles)};
    }
};

// ---- The kernel and the host entry ------------------------------------------------------------

template <class T, class Op, class Policy = SinglePassPolicy>
__global__ void single_pass_scan_kernel(const T* in, T* out, std::size_t n, Handoff<T> handoff, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    const Warp warp = cg::tiled_partition<kWarpSize>(cg::this_thread_block());
    const TileShared<T> shared = tile_shared<Policy, T>(shared_bytes, warp);
    T* const before = shared.warp_values + warp.meta_group_size();  // one element: what comes before the tile
    __shared__ unsigned tile;                                       // this block's tile number
    T items[Policy::kItemsPerThread];

    // TODO 1: take this block's tile number from handoff.ticket (one thread, shared with the
    //         block through `tile`).
    // TODO 2: load the tile and reduce it with lab 06's block_reduce.
    // TODO 5: one thread waits for the tile before, publishes this tile's inclusive prefix,
    //         and shares what comes before this tile with the block through `before`.
    // TODO 6: scan the tile from `before` (lab 06's block_exclusive_scan and scan_items) and
    //         store it.
}

template <class T, class Op>
void single_pass_scan(const T* d_in, T* d_out, std::size_t n, unsigned tile_size, Op op) {
    check_tile_size<SinglePassPolicy, T>(tile_size);  // lab 06: 32 to 1024 threads of 8 elements
    if (n == 0) return;
    const auto tiles = static_cast<unsigned>(scanlab::ceil_div(n, tile_size));
    const unsigned threads = tile_size / SinglePassPolicy::kItemsPerThread;
    const std::size_t shared_bytes = tile_shared_bytes<SinglePassPolicy, T>(threads) + sizeof(T);  // and `before`
    // TODO 7: allocate the hand-off (Handoff<T>::bytes(tiles)), reset it, launch one block of
    //         `threads` threads per tile with shared_bytes of dynamic shared memory and the
    //         hand-off in that memory (Handoff<T>::in), check the launch, free what you
    //         allocated.
}

#endif  // SCANLAB_LAB_07_SINGLE_PASS_CU_INCLUDED
