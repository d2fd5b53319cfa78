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
        // BEGIN SOLUTION
        unsigned bits = 0;
        std::memcpy(&bits, &prefix, sizeof(T));
        atomicExch(&word, kPublishedBit | bits);  // value and flag at once
        // END SOLUTION
        // BEGIN PROMPT
        //| // TODO 3: one atomic store of the flag bit and the prefix's bits to `word`.
        // END PROMPT
    }

    // Thread 0 of the block of the next tile: waits until this tile has published, and returns
    // what it published.
    __device__ T wait() const {
        // BEGIN SOLUTION
        const volatile unsigned long long* const seen_word = &word;
        unsigned long long seen = *seen_word;
        while ((seen & kPublishedBit) == 0) seen = *seen_word;  // the tile started earlier: it will publish  //@ packed-spin
        const auto bits = static_cast<unsigned>(seen);
        T prefix;
        std::memcpy(&prefix, &bits, sizeof(T));
        return prefix;
        // END SOLUTION
        // BEGIN PROMPT
        //| // TODO 4: read `word` through a volatile pointer until its flag bit is set, and return
        //| //         the value beside it.
        //| return T{};
        // END PROMPT
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
        // BEGIN SOLUTION
        prefix = value;  //@ publish-prefix
        __threadfence();  // the inclusive prefix is visible before the flag that announces it  //@ publish-fence
        atomicExch(&published, 1u);
        // END SOLUTION
        // BEGIN PROMPT
        //| // TODO 3: the prefix, a fence, then the flag (an atomic store).
        // END PROMPT
    }

    // Thread 0 of the block of the next tile: waits until this tile has published, and returns
    // what it published.
    __device__ T wait() const {
        // BEGIN SOLUTION
        const volatile unsigned* ready = &published;  //@ flag-read
        while (*ready == 0) {  // the tile started earlier: it will publish  //@ flag-spin
        }
        __threadfence();  // what the tile published is read after its flag  //@ acquire-fence
        return prefix;
        // END SOLUTION
        // BEGIN PROMPT
        //| // TODO 4: read the flag through a volatile pointer until it is set, then the acquire
        //| //         fence (__threadfence() after the loop: without it the prefix may be read
        //| //         before the flag that announces it), and return the prefix.
        //| return T{};
        // END PROMPT
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
    // BEGIN SOLUTION
    if (threadIdx.x == 0) tile = atomicAdd(handoff.ticket, 1u);  //@ ticket
    __syncthreads();  // every thread knows the tile  //@ ticket-barrier
    const std::size_t warp_start = warp_part_start<Policy>(tile, warp);
    load_items<Policy>(in, warp_start, n, warp, shared.turning, items, op);
    const T own_total = reduce_items(items, op);
    const T tile_total = block_reduce(warp, own_total, shared.warp_values, op);

    if (threadIdx.x == 0) {
        const T prefix = tile > 0 ? handoff.words[tile - 1].wait() : op.identity();
        handoff.words[tile].publish(tile > 0 ? op(prefix, tile_total) : tile_total);  //@ publish
        *before = prefix;  //@ before-write
    }
    __syncthreads();  // `before` is set, and warp 0 is done with the warps' totals  //@ before-barrier
    const T before_thread = block_exclusive_scan(warp, own_total, shared.warp_values, KnownPrefix<T>{*before}, op);
    scan_items(items, before_thread, op);
    store_items<Policy>(out, warp_start, n, warp, shared.turning, items);
    // END SOLUTION
    // BEGIN PROMPT
    //|
    //| // TODO 1: take this block's tile number from handoff.ticket (one thread, shared with the
    //| //         block through `tile`).
    //| // TODO 2: load the tile and reduce it with lab 06's block_reduce.
    //| // TODO 5: one thread waits for the tile before, publishes this tile's inclusive prefix,
    //| //         and shares what comes before this tile with the block through `before`.
    //| // TODO 6: scan the tile from `before` (lab 06's block_exclusive_scan and scan_items) and
    //| //         store it.
    // END PROMPT
}

template <class T, class Op>
void single_pass_scan(const T* d_in, T* d_out, std::size_t n, unsigned tile_size, Op op) {
    check_tile_size<SinglePassPolicy, T>(tile_size);  // lab 06: 32 to 1024 threads of 8 elements
    if (n == 0) return;
    const auto tiles = static_cast<unsigned>(scanlab::ceil_div(n, tile_size));
    const unsigned threads = tile_size / SinglePassPolicy::kItemsPerThread;
    const std::size_t shared_bytes = tile_shared_bytes<SinglePassPolicy, T>(threads) + sizeof(T);  // and `before`
    // BEGIN SOLUTION
    const std::size_t handoff_bytes = Handoff<T>::bytes(tiles);
    void* memory = nullptr;
    SCANLAB_CUDA_CHECK(cudaMalloc(&memory, handoff_bytes));
    // Every call starts with no tile published and the ticket at 0.
    SCANLAB_CUDA_CHECK(cudaMemset(memory, 0, handoff_bytes));  //@ reset
    single_pass_scan_kernel<<<tiles, threads, shared_bytes>>>(d_in, d_out, n, Handoff<T>::in(memory, tiles), op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    SCANLAB_CUDA_CHECK(cudaFree(memory));
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 7: allocate the hand-off (Handoff<T>::bytes(tiles)), reset it, launch one block of
    //| //         `threads` threads per tile with shared_bytes of dynamic shared memory and the
    //| //         hand-off in that memory (Handoff<T>::in), check the launch, free what you
    //| //         allocated.
    // END PROMPT
}

#endif  // SCANLAB_LAB_07_SINGLE_PASS_CU_INCLUDED
