// BEGIN SOLUTION
// Lab 07 reference solution: the single-pass stream scan with adjacent synchronization.
//
// One kernel. Each block takes a tile number from an atomic ticket (the order blocks start
// in, not blockIdx.x), loads its tile and reduces it with lab 06's block reduction; then
// thread 0 waits until the tile before has published the combination of everything up to
// its end, publishes the same for its own tile, and the block scans its tile from what came
// before with lab 06's block scan. Every block waits only for a block that started before it,
// so the chain makes progress whatever the order blocks start in and however few fit on the
// device. Each element is read once and written once: lab 06's second read is gone.
//
// The hand-offs follow one another, so their latency, not the bytes, sets the time of a long
// array: large tiles make them few, and a value of at most 4 bytes travels with its flag in
// one 64-bit word, written by one atomic store, which needs no fence between the two.
// END SOLUTION
// BEGIN PROMPT
//| // Lab 07: the single-pass stream scan, one kernel for an array of any length.
//| //
//| // Conventions (see README.md):
//| //   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//| //   - The tile's load, reduction and scan come from lab 06, included below, not copied
//| //     here.
// END PROMPT

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
    // BEGIN SOLUTION
    if constexpr (kPacksWithFlag<T>) {
        unsigned bits = 0;
        std::memcpy(&bits, &prefix, sizeof(T));
        atomicExch(&handoff.packed[tile], kPublishedBit | bits);  // value and flag at once
    } else {
        handoff.inclusive_prefix[tile] = prefix;  //@ publish-prefix
        __threadfence();  // the inclusive prefix is visible before the flag that announces it  //@ publish-fence
        atomicExch(&handoff.published[tile], 1u);
    }
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 3: values of at most 4 bytes: one atomic store of the flag bit and the value's
    //| //         bits to handoff.packed[tile]. Wider values: the prefix, a fence, then the flag.
    // END PROMPT
}

// Thread 0 of the block of tile `tile` + 1: waits until `tile` has published, and returns
// what it published.
template <class T>
__device__ T wait_for_prefix(const Handoff<T>& handoff, unsigned tile) {
    // BEGIN SOLUTION
    if constexpr (kPacksWithFlag<T>) {
        const volatile unsigned long long* word = handoff.packed;
        unsigned long long seen = word[tile];
        while ((seen & kPublishedBit) == 0) seen = word[tile];  // the tile started earlier: it will publish  //@ packed-spin
        const auto bits = static_cast<unsigned>(seen);
        T prefix;
        std::memcpy(&prefix, &bits, sizeof(T));
        return prefix;
    } else {
        const volatile unsigned* ready = handoff.published;  //@ flag-read
        while (ready[tile] == 0) {  // the tile started earlier: it will publish  //@ flag-spin
        }
        __threadfence();  // what the tile published is read after its flag  //@ acquire-fence
        return handoff.inclusive_prefix[tile];
    }
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 4: read the flag through a volatile pointer until it is set (for values of at most
    //| //         4 bytes, the flag bit of handoff.packed[tile], with the value beside it), and
    //| //         return what the tile published.
    //| return T{};
    // END PROMPT
}

template <class T, class Op>
__global__ void single_pass_scan_kernel(const T* in, T* out, std::size_t n, Handoff<T> handoff, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    const Warp warp = cg::tiled_partition<kWarpSize>(cg::this_thread_block());
    const TileShared<T> shared = tile_shared<T>(shared_bytes, warp);
    T* const before = shared.warp_values + warp.meta_group_size();  // one element: what comes before the tile
    __shared__ unsigned tile;                                       // this block's tile number
    T items[kItemsPerThread];
    // BEGIN SOLUTION
    if (threadIdx.x == 0) tile = atomicAdd(handoff.ticket, 1u);  //@ ticket
    __syncthreads();  // every thread knows the tile  //@ ticket-barrier
    const std::size_t warp_start = warp_part_start(tile, warp);
    load_items(in, warp_start, n, warp, shared.turning, items, op);
    const T own_total = reduce_items(items, op);
    const T tile_total = block_reduce(warp, own_total, shared.warp_values, op);

    if (threadIdx.x == 0) {
        const T prefix = tile > 0 ? wait_for_prefix(handoff, tile - 1) : op.identity();
        publish_prefix(handoff, tile, tile > 0 ? op(prefix, tile_total) : tile_total);  //@ publish
        *before = prefix;  //@ before-write
    }
    __syncthreads();  // `before` is set, and warp 0 is done with the warps' totals  //@ before-barrier
    T running = block_exclusive_scan(warp, own_total, *before, shared.warp_values, op);
    for (unsigned i = 0; i < kItemsPerThread; ++i) {
        running = op(running, items[i]);  //@ finish
        items[i] = running;
    }
    store_items(out, warp_start, n, warp, shared.turning, items);
    // END SOLUTION
    // BEGIN PROMPT
    //|
    //| // TODO 1: take this block's tile number from handoff.ticket (one thread, shared with the
    //| //         block through `tile`).
    //| // TODO 2: load the tile and reduce it with lab 06's block_reduce.
    //| // TODO 5: one thread waits for the tile before, publishes this tile's inclusive prefix,
    //| //         and shares what comes before this tile with the block through `before`.
    //| // TODO 6: scan the tile from `before` (lab 06's block_exclusive_scan) and store it.
    // END PROMPT
}

template <class T, class Op>
void single_pass_scan(const T* d_in, T* d_out, std::size_t n, unsigned tile_size, Op op) {
    check_tile_size<T>(tile_size);  // lab 06: 32 to 1024 threads of kItemsPerThread elements
    if (n == 0) return;
    const auto tiles = static_cast<unsigned>(scanlab::ceil_div(n, tile_size));
    const unsigned threads = tile_size / kItemsPerThread;
    const std::size_t shared_bytes = tile_shared_bytes<T>(threads) + sizeof(T);  // and `before`
    // BEGIN SOLUTION
    // One allocation: the tiles' words (or prefixes and flags), then the ticket.
    const std::size_t per_tile = kPacksWithFlag<T> ? sizeof(unsigned long long) : sizeof(T) + sizeof(unsigned);
    const std::size_t handoff_bytes = tiles * per_tile + sizeof(unsigned);
    unsigned char* memory = nullptr;
    SCANLAB_CUDA_CHECK(cudaMalloc(&memory, handoff_bytes));
    Handoff<T> handoff{};
    if constexpr (kPacksWithFlag<T>) {
        handoff.packed = reinterpret_cast<unsigned long long*>(memory);
        handoff.ticket = reinterpret_cast<unsigned*>(handoff.packed + tiles);
    } else {
        handoff.inclusive_prefix = reinterpret_cast<T*>(memory);
        handoff.published = reinterpret_cast<unsigned*>(handoff.inclusive_prefix + tiles);
        handoff.ticket = handoff.published + tiles;
    }
    // Every call starts with no tile published and the ticket at 0.
    SCANLAB_CUDA_CHECK(cudaMemset(memory, 0, handoff_bytes));  //@ reset
    single_pass_scan_kernel<<<tiles, threads, shared_bytes>>>(d_in, d_out, n, handoff, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    SCANLAB_CUDA_CHECK(cudaFree(memory));
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 7: allocate the hand-off (per tile a packed word, or a prefix and a flag, and the
    //| //         ticket), reset it, launch one block of `threads` threads per tile with
    //| //         shared_bytes of dynamic shared memory, check the launch, free what you allocated.
    // END PROMPT
}

#endif  // SCANLAB_LAB_07_SINGLE_PASS_CU_INCLUDED
