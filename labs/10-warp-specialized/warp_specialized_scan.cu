// Lab 10: a warp-specialized single-pass scan (Hopper: bulk asynchronous copies, a ring of
// shared-memory stages guarded by barriers, one role per warp).
//
// Conventions (see README.md):
//   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//   - The status words, the look-back and the scan for small arrays come from lab 09, and
//     the warp scans from lab 06, included below, not copied here.

#ifndef SCANLAB_LAB_10_WARP_SPECIALIZED_CU_INCLUDED  // later labs include this file, perhaps more than once
#define SCANLAB_LAB_10_WARP_SPECIALIZED_CU_INCLUDED

#include <cuda/barrier>
#include <cuda/ptx>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "scanlab/cuda_check.hpp"
#include "scanlab/section_size.hpp"

// Lab 09: the tiles' status words (TileStatus), the look-back (LookbackPrefix), its policy and
// its whole scan for small arrays; through it lab 06's warp scans (warp_reduce,
// warp_inclusive_scan). Built with -I pointing at the folder that holds the labs (the grader
// uses the references there, so a bug in lab 09 costs points in lab 09 only).
#include "09-decoupled-lookback/decoupled_lookback_scan.cu"

namespace lab10 {

using Barrier = cuda::barrier<cuda::thread_scope_block>;

// Lab 09's tuned policy, under a name of its own: lab 10's TunedPolicy below hides lab 09's.
template <class T>
using Lab09TunedPolicy = TunedPolicy<T>;

// ---- The policy ------------------------------------------------------------------------------

// A tile is kParts parts of 32 lanes x ItemsPerThread consecutive elements; one scanner warp per
// part. ItemsPerThread odd keeps the lanes' reads of their consecutive items on different banks.
template <unsigned ScanWarps, unsigned ReduceWarps, unsigned ItemsPerThread, unsigned Stages, unsigned BlocksPerSm,
          unsigned MinPipelinedTiles, unsigned BackoffNs>
struct PipelinePolicy {
    static_assert(ScanWarps >= 1 && ScanWarps <= kWarpSize, "the look-back warp holds one total per part");
    static_assert(ReduceWarps >= 1 && ScanWarps % ReduceWarps == 0, "each reducer warp reduces the same number of parts");
    static_assert(ItemsPerThread >= 1, "at least one item per thread");
    static_assert(Stages >= 2, "a stage being scanned and one being loaded");
    static constexpr unsigned kParts = ScanWarps;
    static constexpr unsigned kScanWarps = ScanWarps;
    static constexpr unsigned kReduceWarps = ReduceWarps;
    static constexpr unsigned kItemsPerThread = ItemsPerThread;
    static constexpr unsigned kStages = Stages;
    static constexpr unsigned kBlocksPerSm = BlocksPerSm;  // at most; the occupancy may allow fewer
    // Below this many tiles per resident block the pipeline has nothing to overlap: lab 09's path.
    static constexpr unsigned kMinPipelinedTiles = MinPipelinedTiles;
    static constexpr unsigned kBackoffNs = BackoffNs;  // between polls of the look-back (LookbackPrefix)

    static constexpr unsigned kProducerWarp = 0;
    static constexpr unsigned kAggregatorWarp = 1;
    static constexpr unsigned kLookbackWarp = 2;
    static constexpr unsigned kFirstReduceWarp = 3;
    static constexpr unsigned kFirstScanWarp = kFirstReduceWarp + ReduceWarps;
    static constexpr unsigned kWarps = kFirstScanWarp + ScanWarps;
    static_assert(kWarps <= kWarpSize, "at most 1024 threads per block");
    static constexpr unsigned kThreads = kWarps * kWarpSize;
    static constexpr unsigned kPartSize = kWarpSize * ItemsPerThread;  // elements
    static constexpr unsigned kTileSize = kParts * kPartSize;
};

// The tuning, one place per architecture. Measured on an H100 (SXM, 132 SMs, 50 MB L2) in one run
// beside lab 09, cub::DeviceScan::InclusiveSum and cudaMemcpyAsync (reports/METHOD.md):
// - one block per SM with all the shared memory it can take: 7 stages of 31 KB (8 parts of
//   32 x 31 four-byte items, or 32 x 15 eight-byte ones). Depth pays once the aggregator warp
//   publishes aggregates at once: 5 / 6 / 7 stages gave 92.5 / 95.0 / 95.6% of the copy (int32,
//   2^28); two blocks of 3 stages 88.5%; tiles of 3.8 K elements and 12 stages 90.7%.
// - 4 reducer warps (2: -0.6%, 8: the same).
// - under 8 tiles per block for 4-byte values (n < 2^23 int32) and 12 for 8-byte ones, lab 09's
//   path is as fast or faster; at 2^23 int32 the pipeline's 8 tiles per block gave 1830 GB/s
//   against 1739 for lab 09's tuned tiles and 1800 for CUB.
// Measured on an H200 (141 GB of HBM3e, a copy at 4.25 TB/s against the H100's 3.0) in one run
// of reports/bench and reports/lab_tuning/lab10_tuning: the same ring is the best of those tried
// there too, at 87.8% of the copy (int32, 2^28; noise under 1%) and 92.8% (double): deeper rings
// of smaller tiles (8 stages of 27 KB: 87.8%; 9 of 23 KB: 85.5%) and more scanner warps (12 parts
// of 32 x 21 in 7 stages: 82.1%) do no better, so bytes in flight are not what the H200 is short of.
// The look-back warp is (lab10_tuning quick, each variant beside the reference in one run): left
// out (a wrong result, timed alone) 96.7% (int32) and 97.1% (double); each look-back started as
// soon as its tile has a ticket instead of once it is reduced, 87.7% and 92.5%; polling 4 tiles
// per lane (128 a round), 81.7% and 86.4%. At the copy's speed a tile may take 2.0 us per block
// on the H200 (2.8 on the H100), and the scan takes 2.3. More look-backs in flight per SM were
// slower: two look-back warps taking the block's tiles in turn 83.0% and 88.6%; two blocks per SM
// with half rings 73 to 82% (int32); a sleep of 50 to 800 ns between polls changed nothing
// (reports/METHOD.md).
// The ring is as deep as the shared memory a block may take allows, a property of the device
// read at run time (tuned_ring below), not its name: 7 stages where a block may take 227 KB
// (sm_90, the H100 and the H200), 3 where it may take 99 KB (not measured: no such GPU here). The
// pipeline itself needs sm_90 or later: bulk copies and transaction barriers.
struct HopperTuning {
    template <class T, unsigned Stages>
    using Ring = PipelinePolicy<8, 4, sizeof(T) <= 4 ? 31 : 15, Stages, 1, sizeof(T) <= 4 ? 8 : 12, 0>;
    template <class T>
    using Policy = Ring<T, 7>;
    template <class T>
    using ShallowPolicy = Ring<T, 3>;
};
template <class T>
using TunedPolicy = HopperTuning::Policy<T>;

// ---- Shared memory of a block ---------------------------------------------------------------

// The bulk copy wants 16-byte aligned addresses and sizes; 128 keeps each stage on its own
// cache lines.
inline constexpr std::size_t kStageAlignment = 128;
inline constexpr std::size_t kBulkCopyGranule = 16;

template <class Policy, class T>
struct alignas(kStageAlignment) PipelineStorage {
    struct alignas(kStageAlignment) Stage {
        T elements[Policy::kTileSize];
    };
    Stage stages[Policy::kStages];
    T part_values[Policy::kStages][Policy::kParts];  // a part's total, then what comes before it
    unsigned tile_numbers[Policy::kStages];          // the tile in each stage; >= tiles: no more
    Barrier loaded[Policy::kStages];
    Barrier reduced[Policy::kStages];
    Barrier aggregated[Policy::kStages];
    Barrier resolved[Policy::kStages];
    Barrier released[Policy::kStages];
};

// The bulk copy moves whole 16-byte granules, so an element may not straddle one.
template <class T>
inline constexpr bool kBulkCopyable = kBulkCopyGranule % sizeof(T) == 0;

// Waits until the barrier's phase of the given parity has completed. mbarrier.try_wait suspends
// the warp in hardware for a while, so a plain retry loop neither burns issue slots nor adds
// the growing sleeps of a software back-off (Barrier::wait_parity) to every hand-off.
__device__ inline void wait_phase(Barrier& barrier, unsigned parity) {
    while (!cuda::ptx::mbarrier_try_wait_parity(cuda::device::barrier_native_handle(barrier), parity)) {
    }
}

// Which stage the block's k-th tile uses, and the parity of that use's phase.
struct Use {
    unsigned stage;
    unsigned parity;
};
template <class Policy>
__device__ Use use_of(unsigned local_tile) {
    return {local_tile % Policy::kStages, (local_tile / Policy::kStages) & 1u};
}

// Every lane arrives on a role's barrier, for its own accesses of the stage (question 5).
inline constexpr unsigned kArrivalsPerWarp = kWarpSize;
__device__ inline void lane_arrive(Barrier& barrier) { static_cast<void>(barrier.arrive()); }

// Where part `part` of tile `tile` starts in the array.
template <class Policy>
__device__ std::size_t part_start(unsigned tile, unsigned part) {
    return (std::size_t{tile} * Policy::kParts + part) * Policy::kPartSize;
}

// ---- The producer ------------------------------------------------------------------------------

// The whole warp waits for each stage to be released; lane 0 takes the ticket and issues the
// copy, and hands the tile number to the other lanes so that the warp leaves the loop together.
// Ends by putting a tile number past the last tile into the next stage, which tells the other
// roles to stop.
template <class Policy, class T>
__device__ void produce(PipelineStorage<Policy, T>& shared, const Warp& warp, const T* in, std::size_t n, unsigned tiles,
                        const TileStatus<T>& status) {
    const unsigned lane = warp.thread_rank();
    for (unsigned k = 0;; ++k) {
        const Use use = use_of<Policy>(k);
        // TODO 1: from the second use of a stage on, wait until the scanner warps have
        //         released its previous use (shared.released, wait_phase).
        unsigned tile = 0;
        if (lane == 0) {
            tile = status.take_ticket();
            shared.tile_numbers[use.stage] = tile;
            Barrier& loaded = shared.loaded[use.stage];
            if (tile >= tiles) {
                static_cast<void>(loaded.arrive());
            } else {
                const std::size_t start = std::size_t{tile} * Policy::kTileSize;
                const std::size_t count = n - start < Policy::kTileSize ? n - start : std::size_t{Policy::kTileSize};
                T* const stage = shared.stages[use.stage].elements;
                // TODO 2: copy the tile's `count` elements into the stage: its whole 16-byte
                //         granules with one bulk asynchronous copy that completes on `loaded`
                //         (cuda::device::memcpy_async_tx), the few elements after them with
                //         plain loads; then arrive on `loaded` once, announcing the bytes the
                //         bulk copy brings (cuda::device::barrier_arrive_tx).
                static_cast<void>(loaded.arrive());
            }
        }
        if (warp.shfl(tile, 0) >= tiles) return;
    }
}

// ---- The reducer warps ---------------------------------------------------------------------

// The combination of this lane's items of a part: those before n (the identity if none).
template <class Policy, class T, class Op>
__device__ T lane_total(const T* items, std::size_t first, bool whole, std::size_t n, Op op) {
    if (!whole && first >= n) return op.identity();  // the stage past n holds nothing of this call
    T total = items[0];
    for (unsigned i = 1; i < Policy::kItemsPerThread; ++i) {
        if (whole || first + i < n) total = op(total, items[i]);
    }
    return total;
}

template <class Policy, class T, class Op>
__device__ void reduce(PipelineStorage<Policy, T>& shared, const Warp& warp, unsigned reducer, std::size_t n, unsigned tiles,
                       Op op) {
    const unsigned lane = warp.thread_rank();
    for (unsigned k = 0;; ++k) {
        const Use use = use_of<Policy>(k);
        wait_phase(shared.loaded[use.stage], use.parity);
        const unsigned tile = shared.tile_numbers[use.stage];
        if (tile < tiles) {
            for (unsigned part = reducer; part < Policy::kParts; part += Policy::kReduceWarps) {
                const std::size_t start = part_start<Policy>(tile, part);
                const T* const items = shared.stages[use.stage].elements + part * Policy::kPartSize + lane * Policy::kItemsPerThread;
                const T total = lane_total<Policy>(items, start + lane * Policy::kItemsPerThread, start + Policy::kPartSize <= n, n, op);
                const T part_total = warp_reduce(warp, total, kWarpSize, op);
                if (lane == 0) shared.part_values[use.stage][part] = part_total;
            }
        }
        // Every lane's reads of the stage are done before the scanners may overwrite it (the
        // shuffles carried the values to lane 0, but they order only registers).
        lane_arrive(shared.reduced[use.stage]);
        if (tile >= tiles) return;
    }
}

// ---- The aggregator warp ----------------------------------------------------------------------

// Publishes each tile's aggregate as soon as its parts are reduced. Every look-back that crosses
// the tile waits for this, so it must not queue behind the look-back warp's own (longer) waits.
template <class Policy, class T, class Op>
__device__ void aggregate(PipelineStorage<Policy, T>& shared, const Warp& warp, unsigned tiles, const TileStatus<T>& status,
                          Op op) {
    const unsigned lane = warp.thread_rank();
    for (unsigned k = 0;; ++k) {
        const Use use = use_of<Policy>(k);
        wait_phase(shared.reduced[use.stage], use.parity);
        const unsigned tile = shared.tile_numbers[use.stage];
        if (tile < tiles) {
            const T total = lane < Policy::kParts ? shared.part_values[use.stage][lane] : op.identity();
            const T tile_total = warp_reduce(warp, total, Policy::kParts, op);
            // Tile 0 publishes its inclusive prefix at once (the look-back warp); an aggregate
            // published after it would overwrite it.
            if (lane == 0 && tile != 0) status.publish(tile, kAggregate, tile_total);
        }
        lane_arrive(shared.aggregated[use.stage]);  // every lane has read its total before the look-back warp overwrites it
        if (tile >= tiles) return;
    }
}

// ---- The look-back warp ---------------------------------------------------------------------

// Lab 09's status words as the look-back warp uses them: the aggregator warp has published each
// tile's aggregate already, so LookbackPrefix's own store of it is left out. (Measured on an H100
// at 2^28 int32: that second store of every aggregate, just before the look-back's polls, cost
// 8% of the copy's speed: 87.3% against 95.3%.)
template <class T>
struct InclusiveOnlyStatus {
    TileStatus<T> status;
    __device__ void publish(unsigned tile, unsigned state, T value) const {
        if (state == kInclusive) status.publish(tile, state, value);
    }
    template <unsigned BackoffNs>
    __device__ TileObservation<T> wait_for(bool exists, unsigned tile) const {
        return status.template wait_for<BackoffNs>(exists, tile);
    }
};

// Lab 09's look-back for each tile, then what comes before each part of it, in part_values.
template <class Policy, class T, class Op>
__device__ void resolve(PipelineStorage<Policy, T>& shared, const Warp& warp, unsigned tiles, const TileStatus<T>& status,
                        Op op) {
    constexpr unsigned kParts = Policy::kParts;
    const unsigned lane = warp.thread_rank();
    for (unsigned k = 0;; ++k) {
        const Use use = use_of<Policy>(k);
        wait_phase(shared.aggregated[use.stage], use.parity);
        const unsigned tile = shared.tile_numbers[use.stage];
        if (tile >= tiles) {  // pass the end on to the scanner warps
            lane_arrive(shared.resolved[use.stage]);
            return;
        }
        T* const values = shared.part_values[use.stage];
        const T total = lane < kParts ? values[lane] : op.identity();
        const T totals_through = warp_inclusive_scan(warp, total, kParts, op);
        const T earlier_parts = warp.shfl_up(totals_through, 1);
        const LookbackPrefix<Policy, T, Op, InclusiveOnlyStatus<T>> lookback{{status}, tile, op};
        const T before_tile = lookback(warp, [&] { return warp.shfl(totals_through, kParts - 1); });
        // Lane 0 has published the tile's inclusive prefix, which this warp's other lanes may read
        // in a later tile's look-back: between threads of one block that is a hand-off like any
        // other, ordered by a barrier (the status words need none only between blocks).
        warp.sync();
        if (lane < kParts) values[lane] = lane == 0 ? before_tile : op(before_tile, earlier_parts);
        lane_arrive(shared.resolved[use.stage]);
    }
}

// ---- The scanner warps ---------------------------------------------------------------------

// Once the look-back warp has resolved a tile: scan this warp's part from what comes before it,
// write it back in place, store it, and release the stage.
template <class Policy, class T, class Op>
__device__ void scan(PipelineStorage<Policy, T>& shared, const Warp& warp, unsigned part, T* out, std::size_t n,
                     unsigned tiles, Op op) {
    const unsigned lane = warp.thread_rank();
    for (unsigned k = 0;; ++k) {
        const Use use = use_of<Policy>(k);
        // TODO 3: wait until the look-back warp has resolved this use of the stage
        //         (shared.resolved, wait_phase).
        const unsigned tile = shared.tile_numbers[use.stage];
        if (tile >= tiles) {
            if (lane == 0) cuda::ptx::cp_async_bulk_wait_group(cuda::ptx::n32_t<0>{});  // the stores in flight finish first
            return;
        }
        const std::size_t start = part_start<Policy>(tile, part);
        const std::size_t first = start + lane * Policy::kItemsPerThread;
        const bool whole = start + Policy::kPartSize <= n;
        T* const part_elements = shared.stages[use.stage].elements + part * Policy::kPartSize;
        T* const items = part_elements + lane * Policy::kItemsPerThread;
        const T inclusive = warp_inclusive_scan(warp, lane_total<Policy>(items, first, whole, n, op), kWarpSize, op);
        const T before_lane = warp.shfl_up(inclusive, 1);  // lane 0: nothing before it in the part
        const T before_part = shared.part_values[use.stage][part];
        T running = lane == 0 ? before_part : op(before_part, before_lane);
        for (unsigned i = 0; i < Policy::kItemsPerThread; ++i) {
            if (whole || first + i < n) {
                running = op(running, items[i]);
                items[i] = running;
            }
        }
        // TODO 4: store the part to out[start, start + Policy::kPartSize): a whole part with one
        //         bulk copy from shared to global memory (cuda::ptx::cp_async_bulk, issued by
        //         one lane after every lane's writes are ordered before the async proxy:
        //         cuda::ptx::fence_proxy_async, warp.sync), which must have read the part
        //         before the stage is released (cuda::ptx::cp_async_bulk_commit_group and
        //         cp_async_bulk_wait_group_read); the last, partial part by the lanes. Then every
        //         lane releases the stage (shared.released).
    }
}

// ---- The kernel -------------------------------------------------------------------------------

template <class Policy, class T, class Op>
__global__ void __launch_bounds__(Policy::kThreads)
    warp_specialized_kernel(const T* in, T* out, std::size_t n, unsigned tiles, TileStatus<T> status, Op op) {
    extern __shared__ __align__(kStageAlignment) unsigned char shared_bytes[];
    auto& shared = *reinterpret_cast<PipelineStorage<Policy, T>*>(shared_bytes);
    const Warp warp = cg::tiled_partition<kWarpSize>(cg::this_thread_block());
    if (threadIdx.x == 0) {
        for (unsigned s = 0; s < Policy::kStages; ++s) {
            init(&shared.loaded[s], 1);
            init(&shared.reduced[s], Policy::kReduceWarps * kArrivalsPerWarp);
            init(&shared.aggregated[s], kArrivalsPerWarp);
            init(&shared.resolved[s], kArrivalsPerWarp);
            init(&shared.released[s], Policy::kScanWarps * kArrivalsPerWarp);
        }
        cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);  // the copy engine sees the barriers initialized
    }
    __syncthreads();  // the barriers are ready before any role uses them; the block's only barrier of all its threads
    const unsigned role = warp.meta_group_rank();
    if (role == Policy::kProducerWarp) {
        produce(shared, warp, in, n, tiles, status);
    } else if (role == Policy::kAggregatorWarp) {
        aggregate(shared, warp, tiles, status, op);
    } else if (role == Policy::kLookbackWarp) {
        resolve(shared, warp, tiles, status, op);
    } else if (role < Policy::kFirstScanWarp) {
        reduce(shared, warp, role - Policy::kFirstReduceWarp, n, tiles, op);
    } else {
        scan(shared, warp, role - Policy::kFirstScanWarp, out, n, tiles, op);
    }
}

// ---- Lab 09's path, for arrays too small for the pipeline -----------------------------------

// Arrays that make fewer than kSmallArrayTiles of lab 09's tuned tiles take smaller tiles, which
// spread them over more SMs; 4-byte values up to kMidArrayTiles take middle-sized ones. Measured
// on an H100 (int32): at 2^16 and 2^18, 256 x 15 beats lab 09's 512 x 39 by 13 to 27% and CUB by
// 10%; at 2^22, 384 x 31 gives 1633 GB/s against 1475 with the tuned tiles and 1434 for CUB, and
// at 2^20 and 2^21 they are the same within the noise; from 2^23 on the pipeline wins.
inline constexpr std::size_t kSmallArrayTiles = 32;
inline constexpr std::size_t kMidArrayTiles = 320;
template <class T>
using SmallArrayPolicy = ScanPolicy<256, 15, Lab09TunedPolicy<T>::kBackoffNs>;
template <class T>
using MidArrayPolicy = ScanPolicy<384, 31, Lab09TunedPolicy<T>::kBackoffNs>;

template <class T, class Op>
void lab09_path(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out, std::size_t n, Op op) {
    const std::size_t tuned_tiles = scanlab::ceil_div(n, Lab09TunedPolicy<T>::kTileSize);
    if (tuned_tiles < kSmallArrayTiles) {
        decoupled_lookback_scan<SmallArrayPolicy<T>>(d_temp_storage, temp_storage_bytes, d_in, d_out, n, op);
        return;
    }
    if constexpr (sizeof(T) <= 4) {
        if (tuned_tiles < kMidArrayTiles) {
            decoupled_lookback_scan<MidArrayPolicy<T>>(d_temp_storage, temp_storage_bytes, d_in, d_out, n, op);
            return;
        }
    }
    decoupled_lookback_scan<Lab09TunedPolicy<T>>(d_temp_storage, temp_storage_bytes, d_in, d_out, n, op);
}

}  // namespace lab10

// ---- The host entry ---------------------------------------------------------------------------

// As lab 09's: with d_temp_storage == nullptr, sets temp_storage_bytes to what a scan of n
// elements needs and returns; otherwise scans d_in[0, n) into d_out with that storage, on the
// default stream. Arrays of fewer than Policy::kMinPipelinedTiles tiles per resident block,
// misaligned arrays and elements that the bulk copy cannot move take lab 09's path.
template <class Policy, class T, class Op>
void warp_specialized_scan(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out, std::size_t n,
                           Op op) {
    std::size_t fallback_bytes = 0;
    lab10::lab09_path(nullptr, fallback_bytes, d_in, d_out, n, op);
    const std::size_t tiles_wide = scanlab::ceil_div(n, Policy::kTileSize);
    if (tiles_wide > 0xFFFFFFFFu) throw std::invalid_argument("more tiles than a 32-bit ticket can number: n = " + std::to_string(n));
    const auto tiles = static_cast<unsigned>(tiles_wide);
    const std::size_t pipelined_bytes = TileStatus<T>::bytes(tiles);
    if (d_temp_storage == nullptr) {
        temp_storage_bytes = std::max(fallback_bytes, pipelined_bytes);
        return;
    }
    if (temp_storage_bytes < std::max(fallback_bytes, pipelined_bytes)) {
        throw std::invalid_argument("temporary storage of " + std::to_string(temp_storage_bytes) + " bytes, a scan of " +
                                    std::to_string(n) + " elements needs " + std::to_string(std::max(fallback_bytes, pipelined_bytes)));
    }
    if (n == 0) return;

    const auto kernel = lab10::warp_specialized_kernel<Policy, T, Op>;
    constexpr std::size_t shared_bytes = sizeof(lab10::PipelineStorage<Policy, T>);
    const bool aligned = reinterpret_cast<std::uintptr_t>(d_in) % lab10::kBulkCopyGranule == 0 &&
                         reinterpret_cast<std::uintptr_t>(d_out) % lab10::kBulkCopyGranule == 0;
    // TODO 5: launch the persistent blocks: as many as are resident at once (the device's
    //         multiprocessors times cudaOccupancyMaxActiveBlocksPerMultiprocessor, at most
    //         Policy::kBlocksPerSm per multiprocessor, never more than the tiles), each of
    //         Policy::kThreads threads with shared_bytes of dynamic shared memory (more than
    //         the default: cudaFuncSetAttribute). Take lab 09's path (lab10::lab09_path)
    //         instead where the pipeline cannot run or would not pay: elements the bulk copy
    //         cannot move, arrays not `aligned`, no block resident, or fewer than
    //         Policy::kMinPipelinedTiles tiles per block. Reset the status words and the
    //         ticket first (pipelined_bytes of the temporary storage), and check the launch.
    static_cast<void>(kernel);
    static_cast<void>(aligned);
}

namespace lab10 {

// Which of the tuned rings (HopperTuning) a block that may take `block_limit` bytes of shared
// memory can hold: the deepest that fits; none: lab 09's path.
enum class Ring { tuned, shallow, none };
template <class T>
constexpr Ring ring_for(std::size_t block_limit) {
    if (sizeof(PipelineStorage<HopperTuning::Policy<T>, T>) <= block_limit) return Ring::tuned;
    if (sizeof(PipelineStorage<HopperTuning::ShallowPolicy<T>, T>) <= block_limit) return Ring::shallow;
    return Ring::none;
}
static_assert(ring_for<int>(227 * 1024) == Ring::tuned && ring_for<double>(227 * 1024) == Ring::tuned, "sm_90: 227 KB");
static_assert(ring_for<int>(99 * 1024) == Ring::shallow && ring_for<double>(99 * 1024) == Ring::shallow, "99 KB");
static_assert(ring_for<int>(48 * 1024) == Ring::none, "48 KB: lab 09's path");

template <class T>
Ring tuned_ring() {
    int device = 0, block_limit = 0;
    SCANLAB_CUDA_CHECK(cudaGetDevice(&device));
    SCANLAB_CUDA_CHECK(cudaDeviceGetAttribute(&block_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    return ring_for<T>(static_cast<std::size_t>(block_limit));
}

}  // namespace lab10

// The same with the tuning of this kit's GPUs, the ring as deep as the device allows.
template <class T, class Op>
void warp_specialized_scan(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out, std::size_t n,
                           Op op) {
    switch (lab10::tuned_ring<T>()) {
        case lab10::Ring::tuned:
            warp_specialized_scan<lab10::HopperTuning::Policy<T>>(d_temp_storage, temp_storage_bytes, d_in, d_out, n, op);
            return;
        case lab10::Ring::shallow:
            warp_specialized_scan<lab10::HopperTuning::ShallowPolicy<T>>(d_temp_storage, temp_storage_bytes, d_in, d_out, n, op);
            return;
        case lab10::Ring::none:
            lab10::lab09_path(d_temp_storage, temp_storage_bytes, d_in, d_out, n, op);
            return;
    }
}

#endif  // SCANLAB_LAB_10_WARP_SPECIALIZED_CU_INCLUDED
