// Lab 06: the hierarchical scan of an array of any length, reduce then scan.
//
// Conventions (see README.md):
//   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//   - Positions of the last tile past n take part as op.identity(); nothing is stored for
//     them.

#ifndef SCANLAB_LAB_06_HIERARCHICAL_CU_INCLUDED  // later labs include this file, perhaps more than once
#define SCANLAB_LAB_06_HIERARCHICAL_CU_INCLUDED

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "scanlab/cuda_check.hpp"
#include "scanlab/section_size.hpp"
#include "scanlab/shared_alignment.hpp"

namespace cg = cooperative_groups;

// ---- The policy: the shape of a tile ------------------------------------------------------

inline constexpr unsigned kWarpSize = 32;
using Warp = cg::thread_block_tile<kWarpSize, cg::thread_block>;

// A block of 32 to 1024 threads holds its tile in registers, ItemsPerThread consecutive
// elements per thread, and each warp moves its part of the tile (its 32 lanes' items) through a
// turning area in shared memory. As in CUB, the blocks below take every size from the policy,
// so a lab that includes them picks its own shape and gets the same code at that shape. Threads
// fixes the block's size where a lab knows it when it compiles; 0 leaves it to the launch.
template <unsigned ItemsPerThread, unsigned Threads = 0>
struct TilePolicy {
    static_assert(ItemsPerThread >= 1, "a thread holds at least one item");
    static constexpr unsigned kItemsPerThread = ItemsPerThread;
    static constexpr unsigned kThreads = Threads;
    static constexpr unsigned kWarpPart = kWarpSize * ItemsPerThread;  // the elements of a warp's part
    // Lane l reads its items from element l * ItemsPerThread of the turning area on. With an odd
    // count the 32 lanes hit 32 different banks; with an even one, one pad element after every
    // 32 spreads them over the banks.
    static constexpr bool kPadded = ItemsPerThread % 2 == 0;
    static constexpr unsigned kTurningSize = kPadded ? kWarpPart + kWarpPart / kWarpSize : kWarpPart;
    // Where element k of the warp's part lies in its turning area.
    __host__ __device__ static constexpr unsigned slot(unsigned k) { return kPadded ? k + k / kWarpSize : k; }
};

// Lab 06's tiles: enough items per thread that a thread combines most of them on its own, few
// enough that the simulator stays quick.
using HierarchicalPolicy = TilePolicy<8>;

// ---- The tile's shared memory ---------------------------------------------------------------

// The dynamic shared memory a kernel may use without opting in to more.
inline constexpr std::size_t kMaxTileSharedBytes = 48 * 1024;

// Shared memory of a block of `threads` threads: each warp's turning area, then one value per
// warp (its total, later what comes before it).
template <class Policy, class T>
constexpr std::size_t tile_shared_bytes(unsigned threads) {
    return static_cast<std::size_t>(threads / kWarpSize) * (Policy::kTurningSize + 1) * sizeof(T);
}

// A tile is 32 to 1024 threads (a power of two) of Policy::kItemsPerThread elements each, and
// its shared memory fits in 48 KiB.
template <class Policy, class T>
void check_tile_size(unsigned tile_size) {
    const unsigned threads = tile_size / Policy::kItemsPerThread;
    if (tile_size % Policy::kItemsPerThread != 0 || threads < kWarpSize || !scanlab::is_valid_section_size(threads)) {
        throw std::invalid_argument("tile_size must be a power of two from " + std::to_string(Policy::kWarpPart) + " to " +
                                    std::to_string(scanlab::kMaxSectionSize * Policy::kItemsPerThread) + " (" +
                                    std::to_string(Policy::kItemsPerThread) + " elements per thread), got " +
                                    std::to_string(tile_size));
    }
    if (tile_shared_bytes<Policy, T>(threads) > kMaxTileSharedBytes) {
        throw std::invalid_argument("a tile of " + std::to_string(tile_size) + " elements of " +
                                    std::to_string(sizeof(T)) + " bytes needs more than 48 KiB of shared memory");
    }
}

// The shared memory of one block, split as tile_shared_bytes describes.
template <class T>
struct TileShared {
    T* turning;      // this warp's Policy::kTurningSize elements
    T* warp_values;  // one per warp of the block
};

// The warps of the block: a constant where the policy fixes the block's size.
template <class Policy>
__device__ unsigned block_warps(const Warp& warp) {
    if constexpr (Policy::kThreads != 0) return Policy::kThreads / kWarpSize;
    return warp.meta_group_size();
}

template <class Policy, class T>
__device__ TileShared<T> tile_shared(unsigned char* bytes, const Warp& warp) {
    T* const base = reinterpret_cast<T*>(bytes);
    return {base + warp.meta_group_rank() * Policy::kTurningSize, base + block_warps<Policy>(warp) * Policy::kTurningSize};
}

// Where this warp's part of tile `tile` starts in the array.
template <class Policy>
__device__ std::size_t warp_part_start(std::size_t tile, const Warp& warp) {
    return (tile * block_warps<Policy>(warp) + warp.meta_group_rank()) * Policy::kWarpPart;
}

// ---- How a warp moves its part of the tile: coalesced rows, each lane's items through shared ---

// The warp reads its part, which starts at warp_start, into its turning area row by row, 32
// consecutive elements at a time (coalesced); positions past n hold the identity.
template <class Policy, class T, class Op>
__device__ void load_rows(const T* in, std::size_t warp_start, std::size_t n, const Warp& warp, T* turning, Op op) {
    const unsigned lane = warp.thread_rank();
    for (unsigned row = 0; row < Policy::kItemsPerThread; ++row) {
        const unsigned k = row * kWarpSize + lane;
        turning[Policy::slot(k)] = warp_start + k < n ? in[warp_start + k] : op.identity();
    }
}

// Each lane takes its own consecutive items from the turning area (corner turning), once the
// whole part is there.
template <class Policy, class T>
__device__ void take_items(const Warp& warp, const T* turning, T (&items)[Policy::kItemsPerThread]) {
    warp.sync();  // the part is in before the lanes read their own items
    const unsigned lane = warp.thread_rank();
    for (unsigned i = 0; i < Policy::kItemsPerThread; ++i) items[i] = turning[Policy::slot(lane * Policy::kItemsPerThread + i)];
}

// The reverse of take_items: each lane puts its items back where it took them from. A lane
// overwrites only the places it read itself, so no barrier is needed before.
template <class Policy, class T>
__device__ void put_items(const Warp& warp, T* turning, const T (&items)[Policy::kItemsPerThread]) {
    const unsigned lane = warp.thread_rank();
    for (unsigned i = 0; i < Policy::kItemsPerThread; ++i) turning[Policy::slot(lane * Policy::kItemsPerThread + i)] = items[i];
    warp.sync();  // every lane's items are in before the part is read
}

// The reverse of load_rows: the warp writes its part row by row, positions below n only.
template <class Policy, class T>
__device__ void store_rows(T* out, std::size_t warp_start, std::size_t n, const Warp& warp, const T* turning) {
    const unsigned lane = warp.thread_rank();
    for (unsigned row = 0; row < Policy::kItemsPerThread; ++row) {
        const unsigned k = row * kWarpSize + lane;
        if (warp_start + k < n) out[warp_start + k] = turning[Policy::slot(k)];
    }
}

// This lane's Policy::kItemsPerThread consecutive elements of the warp's part (identity past n).
template <class Policy, class T, class Op>
__device__ void load_items(const T* in, std::size_t warp_start, std::size_t n, const Warp& warp, T* turning,
                           T (&items)[Policy::kItemsPerThread], Op op) {
    load_rows<Policy>(in, warp_start, n, warp, turning, op);
    take_items<Policy>(warp, turning, items);
}

// The reverse of load_items (positions below n only).
template <class Policy, class T>
__device__ void store_items(T* out, std::size_t warp_start, std::size_t n, const Warp& warp, T* turning,
                            const T (&items)[Policy::kItemsPerThread]) {
    put_items<Policy>(warp, turning, items);
    store_rows<Policy>(out, warp_start, n, warp, turning);
}

// ---- Thread-level combining: a thread's own items, in order ---------------------------------

template <unsigned Items, class T, class Op>
__device__ T reduce_items(const T (&items)[Items], Op op) {
    T total = items[0];
    for (unsigned i = 1; i < Items; ++i) total = op(total, items[i]);
    return total;
}

// Each item becomes the combination of `before` and the items up to it.
template <unsigned Items, class T, class Op>
__device__ void scan_items(T (&items)[Items], T before, Op op) {
    T running = before;
    for (unsigned i = 0; i < Items; ++i) {
        running = op(running, items[i]);
        items[i] = running;
    }
}

// ---- Warp-level combining with shuffles (the lanes of a warp, in lane order) ----------------

// Lane 0 ends with the combination of the first `count` lanes' values (a tree: 31
// applications for a full warp). Every lane of the warp must call it.
template <class T, class Op>
__device__ T warp_reduce(const Warp& warp, T value, unsigned count, Op op) {
    const unsigned lane = warp.thread_rank();
    for (unsigned offset = 1; offset < kWarpSize; offset *= 2) {
        const T later = warp.shfl_down(value, offset);
        if (lane % (2 * offset) == 0 && lane + offset < count) value = op(value, later);
    }
    return value;
}

// Lane l ends with the combination of the values of lanes 0 .. l (Kogge-Stone; lanes at or
// past `count` are left out of the work). Every lane of the warp must call it.
template <class T, class Op>
__device__ T warp_inclusive_scan(const Warp& warp, T value, unsigned count, Op op) {
    const unsigned lane = warp.thread_rank();
    for (unsigned offset = 1; offset < kWarpSize; offset *= 2) {
        const T earlier = warp.shfl_up(value, offset);
        if (lane >= offset && lane < count) value = op(earlier, value);
    }
    return value;
}

// ---- Block-level combining: threads, then warps ------------------------------------------

// Thread 0 gets the combination of every thread's value, in thread order.
template <class T, class Op>
__device__ T block_reduce(const Warp& warp, T value, T* warp_values, Op op) {
    // TODO 1: each warp reduces its threads' values (warp_reduce), one lane per warp puts the
    //         warp's total in warp_values, and warp 0 reduces those.
    return value;
}

// Each thread gets what comes before its value: the values of the threads before it in the
// block, after what comes before the block. That is prefix(warp, block_total), which warp 0
// calls, every lane of it, between the two barriers while the other warps wait: a value known
// beforehand (KnownPrefix), or one the block must wait for, such as the tiles before it in a
// single-pass scan. block_total() returns the block's total to a prefix that needs it (a
// shuffle, which the others never pay for). After CUB's BlockScan with a block prefix callback.
template <class T, class Op, class Prefix>
__device__ T block_exclusive_scan(const Warp& warp, T value, T* warp_values, const Prefix& prefix, Op op) {
    // TODO 2: scan the threads' values within each warp (warp_inclusive_scan); warp 0 scans
    //         the warps' totals, calls prefix(warp, block_total) to learn what comes before
    //         the block (block_total: a function that returns the block's total), and turns
    //         the totals into what comes before each warp; return what comes before this
    //         thread.
    return value;
}

// The prefix of a block that knows beforehand what comes before it.
template <class T>
struct KnownPrefix {
    T before;
    template <class BlockTotal>
    __device__ T operator()(const Warp& /*warp*/, const BlockTotal& /*block_total*/) const {
        return before;
    }
};

// ---- The three kernels --------------------------------------------------------------------

// Kernel 1: block b writes the total of tile b of `in` (n elements) to totals[b].
template <class T, class Op, class Policy = HierarchicalPolicy>
__global__ void reduce_tiles_kernel(const T* in, T* totals, std::size_t n, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    const Warp warp = cg::tiled_partition<kWarpSize>(cg::this_thread_block());
    const TileShared<T> shared = tile_shared<Policy, T>(shared_bytes, warp);
    T items[Policy::kItemsPerThread];
    load_items<Policy>(in, warp_part_start<Policy>(blockIdx.x, warp), n, warp, shared.turning, items, op);

    // TODO 3: combine this thread's items (reduce_items), reduce the block's values
    //         (block_reduce), and write the tile's total to totals[blockIdx.x].
}

// Kernels 2 and 3: block b scans tile b of `in` (n elements) into `out`, starting from
// scanned_totals[b - 1], the scanned total of all tiles before it (nothing before tile 0).
// scanned_totals is null when the whole level is one tile (kernel 2). `in` may be `out`.
template <class T, class Op, class Policy = HierarchicalPolicy>
__global__ void scan_tiles_kernel(const T* in, T* out, const T* scanned_totals, std::size_t n, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    const Warp warp = cg::tiled_partition<kWarpSize>(cg::this_thread_block());
    const TileShared<T> shared = tile_shared<Policy, T>(shared_bytes, warp);
    const std::size_t warp_start = warp_part_start<Policy>(blockIdx.x, warp);
    T items[Policy::kItemsPerThread];
    load_items<Policy>(in, warp_start, n, warp, shared.turning, items, op);

    // TODO 4: combine this thread's items (reduce_items), find what comes before them
    //         (block_exclusive_scan, starting from what comes before the tile: KnownPrefix),
    //         and scan the items from there (scan_items).
    store_items<Policy>(out, warp_start, n, warp, shared.turning, items);
}

// ---- The host entry -------------------------------------------------------------------------

// The element counts of the levels: n, then one total per tile of the level below, up to the
// first level that fits in one tile.
inline std::vector<std::size_t> level_sizes(std::size_t n, unsigned tile_size) {
    std::vector<std::size_t> sizes{n};
    while (sizes.back() > tile_size) sizes.push_back(scanlab::ceil_div(sizes.back(), tile_size));
    return sizes;
}

template <class T, class Op>
void hierarchical_scan(const T* d_in, T* d_out, std::size_t n, unsigned tile_size, Op op) {
    check_tile_size<HierarchicalPolicy, T>(tile_size);
    if (n == 0) return;
    const std::vector<std::size_t> levels = level_sizes(n, tile_size);
    const unsigned threads = tile_size / HierarchicalPolicy::kItemsPerThread;
    const std::size_t shared_bytes = tile_shared_bytes<HierarchicalPolicy, T>(threads);
    // TODO 5: allocate the totals of every level above the input (once per call); going up,
    //         reduce each level's tiles into the next level (reduce_tiles_kernel); scan the
    //         top level, one tile, with scan_tiles_kernel and just enough warps to hold it
    //         (padding costs operator applications too); going down, scan each level's tiles
    //         from the scanned totals of the level above; check every launch, and free what
    //         you allocated. Launch `threads` threads per block with shared_bytes of dynamic
    //         shared memory; level_sizes(n, tile_size) gives the size of each level.
}

#endif  // SCANLAB_LAB_06_HIERARCHICAL_CU_INCLUDED
