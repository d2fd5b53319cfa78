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

// ---- The tile: its shape, and how a warp moves its part of it ------------------------------

// Every thread holds this many consecutive elements of its tile in registers: enough that a
// thread combines most of them on its own, few enough that the simulator stays quick.
inline constexpr unsigned kItemsPerThread = 8;
inline constexpr unsigned kWarpSize = 32;
using Warp = cg::thread_block_tile<kWarpSize, cg::thread_block>;

// A warp's part of a tile: 32 lanes of kItemsPerThread consecutive elements.
inline constexpr unsigned kWarpTileSize = kWarpSize * kItemsPerThread;
// The warp turns its part around in shared memory with one pad element after every 32, so
// that lanes reading kItemsPerThread apart hit different banks.
inline constexpr unsigned kPaddedWarpTileSize = kWarpTileSize + kWarpTileSize / kWarpSize;
__host__ __device__ constexpr unsigned padded(unsigned k) { return k + k / kWarpSize; }

// The dynamic shared memory a kernel may use without opting in to more.
inline constexpr std::size_t kMaxTileSharedBytes = 48 * 1024;

// Shared memory of a block of `threads` threads: each warp's turning area, then one value
// per warp (its total, later what comes before it).
template <class T>
std::size_t tile_shared_bytes(unsigned threads) {
    return static_cast<std::size_t>(threads / kWarpSize) * (kPaddedWarpTileSize + 1) * sizeof(T);
}

// A tile is 32 to 1024 threads (a power of two) of kItemsPerThread elements each, and its
// shared memory fits in 48 KiB.
template <class T>
void check_tile_size(unsigned tile_size) {
    const unsigned threads = tile_size / kItemsPerThread;
    if (tile_size % kItemsPerThread != 0 || threads < kWarpSize || !scanlab::is_valid_section_size(threads)) {
        throw std::invalid_argument("tile_size must be a power of two from " + std::to_string(kWarpTileSize) + " to " +
                                    std::to_string(scanlab::kMaxSectionSize * kItemsPerThread) + " (" +
                                    std::to_string(kItemsPerThread) + " elements per thread), got " +
                                    std::to_string(tile_size));
    }
    if (tile_shared_bytes<T>(threads) > kMaxTileSharedBytes) {
        throw std::invalid_argument("a tile of " + std::to_string(tile_size) + " elements of " +
                                    std::to_string(sizeof(T)) + " bytes needs more than 48 KiB of shared memory");
    }
}

// The shared memory of one block, split as tile_shared_bytes describes.
template <class T>
struct TileShared {
    T* turning;      // this warp's kPaddedWarpTileSize elements
    T* warp_values;  // one per warp of the block
};

template <class T>
__device__ TileShared<T> tile_shared(unsigned char* bytes, const Warp& warp) {
    T* const base = reinterpret_cast<T*>(bytes);
    return {base + warp.meta_group_rank() * kPaddedWarpTileSize, base + warp.meta_group_size() * kPaddedWarpTileSize};
}

// Loads this lane's kItemsPerThread consecutive elements of the warp's part, which starts at
// warp_start (identity past n). The warp reads its part row by row, 32 consecutive elements
// at a time (coalesced), and hands each lane its own through shared memory (corner turning).
template <class T, class Op>
__device__ void load_items(const T* in, std::size_t warp_start, std::size_t n, const Warp& warp, T* turning,
                           T (&items)[kItemsPerThread], Op op) {
    const unsigned lane = warp.thread_rank();
    for (unsigned row = 0; row < kItemsPerThread; ++row) {
        const unsigned k = row * kWarpSize + lane;
        turning[padded(k)] = warp_start + k < n ? in[warp_start + k] : op.identity();
    }
    warp.sync();  // the rows are in before the lanes read their own items
    for (unsigned i = 0; i < kItemsPerThread; ++i) items[i] = turning[padded(lane * kItemsPerThread + i)];
}

// The reverse of load_items: each lane puts its items where it took them from, and the warp
// writes its part row by row (positions below n only). A lane overwrites only the places it
// read itself, so no barrier is needed before.
template <class T>
__device__ void store_items(T* out, std::size_t warp_start, std::size_t n, const Warp& warp, T* turning,
                            const T (&items)[kItemsPerThread]) {
    const unsigned lane = warp.thread_rank();
    for (unsigned i = 0; i < kItemsPerThread; ++i) turning[padded(lane * kItemsPerThread + i)] = items[i];
    warp.sync();  // every lane's items are in before the rows are read
    for (unsigned row = 0; row < kItemsPerThread; ++row) {
        const unsigned k = row * kWarpSize + lane;
        if (warp_start + k < n) out[warp_start + k] = turning[padded(k)];
    }
}

// Where this warp's part of tile `tile` starts in the array.
__device__ inline std::size_t warp_part_start(std::size_t tile, const Warp& warp) {
    return (tile * warp.meta_group_size() + warp.meta_group_rank()) * kWarpTileSize;
}

// ---- Thread-level combining: a thread's own items, in order ---------------------------------

template <class T, class Op>
__device__ T reduce_items(const T (&items)[kItemsPerThread], Op op) {
    T total = items[0];
    for (unsigned i = 1; i < kItemsPerThread; ++i) total = op(total, items[i]);
    return total;
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

// Each thread gets the combination of `before` (what comes before the block) and the values
// of every thread before it.
template <class T, class Op>
__device__ T block_exclusive_scan(const Warp& warp, T value, T before, T* warp_values, Op op) {
    // TODO 2: scan the threads' values within each warp (warp_inclusive_scan), let warp 0
    //         turn the warps' totals into what comes before each warp (starting from
    //         `before`), and return what comes before this thread.
    return before;
}

// ---- The three kernels --------------------------------------------------------------------

// Kernel 1: block b writes the total of tile b of `in` (n elements) to totals[b].
template <class T, class Op>
__global__ void reduce_tiles_kernel(const T* in, T* totals, std::size_t n, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    const Warp warp = cg::tiled_partition<kWarpSize>(cg::this_thread_block());
    const TileShared<T> shared = tile_shared<T>(shared_bytes, warp);
    const std::size_t warp_start = warp_part_start(blockIdx.x, warp);
    T items[kItemsPerThread];
    load_items(in, warp_start, n, warp, shared.turning, items, op);

    // TODO 3: combine this thread's items (reduce_items), reduce the block's values
    //         (block_reduce), and write the tile's total to totals[blockIdx.x].
}

// Kernels 2 and 3: block b scans tile b of `in` (n elements) into `out`, starting from
// scanned_totals[b - 1], the scanned total of all tiles before it (nothing before tile 0).
// scanned_totals is null when the whole level is one tile (kernel 2). `in` may be `out`.
template <class T, class Op>
__global__ void scan_tiles_kernel(const T* in, T* out, const T* scanned_totals, std::size_t n, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];
    const Warp warp = cg::tiled_partition<kWarpSize>(cg::this_thread_block());
    const TileShared<T> shared = tile_shared<T>(shared_bytes, warp);
    const std::size_t warp_start = warp_part_start(blockIdx.x, warp);
    T items[kItemsPerThread];
    load_items(in, warp_start, n, warp, shared.turning, items, op);

    // TODO 4: combine this thread's items (reduce_items), find what comes before them
    //         (block_exclusive_scan, starting from what comes before the tile), and scan the
    //         items from there.
    store_items(out, warp_start, n, warp, shared.turning, items);
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
    check_tile_size<T>(tile_size);
    if (n == 0) return;
    const std::vector<std::size_t> levels = level_sizes(n, tile_size);
    const unsigned threads = tile_size / kItemsPerThread;
    const std::size_t shared_bytes = tile_shared_bytes<T>(threads);
    // TODO 5: allocate the totals of every level above the input (once per call); going up,
    //         reduce each level's tiles into the next level (reduce_tiles_kernel); scan the
    //         top level, one tile, with scan_tiles_kernel and just enough warps to hold it
    //         (padding costs operator applications too); going down, scan each level's tiles
    //         from the scanned totals of the level above; check every launch, and free what
    //         you allocated. Launch `threads` threads per block with shared_bytes of dynamic
    //         shared memory; level_sizes(n, tile_size) gives the size of each level.
}

#endif  // SCANLAB_LAB_06_HIERARCHICAL_CU_INCLUDED
