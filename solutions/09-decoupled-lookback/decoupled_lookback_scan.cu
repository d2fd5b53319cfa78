// BEGIN SOLUTION
// Lab 09 reference solution: the single-pass scan with decoupled look-back (Merrill and
// Garland), the scan CUB ships.
//
// One kernel. Each block takes a tile number from an atomic ticket, loads its tile with
// 16-byte loads, and reduces it. Then one warp of the block publishes the tile's aggregate (its
// own total) at once, and looks back at the tiles before it, a window of 32 at a time: each
// lane waits until its tile has published something, a ballot finds the nearest tile that
// published its inclusive prefix (everything up to its end), and the window's values from
// there on are combined into what comes before the tile. The warp publishes the tile's
// inclusive prefix, and the block scans its tile from what came before.
//
// Lab 07 waited for the tile before to have *finished its look-back*; here a tile needs from
// its predecessors only their aggregates, which each publishes as soon as it has loaded its
// tile, so the waits overlap instead of forming a chain. Every tile waits only for tiles with
// smaller tickets, which started before it: the scan makes progress whatever order blocks
// start in and however few are resident.
//
// Operator applications per tile of S = P * I elements (P threads of I items, W warps): P(I - 1)
// for the threads' items, 129 per warp for the warp scans, at most 129 + W for the warps'
// totals and the tile's prefix, 31 per warp to put what comes before a warp in front of its
// lanes, at most 32 per window of the look-back and one for the inclusive prefix, and P * I
// to scan the items: about 2S + 5P.
// END SOLUTION
// BEGIN PROMPT
//| // Lab 09: the single-pass scan with decoupled look-back.
//| //
//| // Conventions (see README.md):
//| //   - op(a, b) combines an EARLIER value a with a LATER value b; never swap them.
//| //   - The tile's load, store and block scan come from lab 06, included below, not copied
//| //     here.
// END PROMPT

#ifndef SCANLAB_LAB_09_DECOUPLED_LOOKBACK_CU_INCLUDED  // later labs include this file, perhaps more than once
#define SCANLAB_LAB_09_DECOUPLED_LOOKBACK_CU_INCLUDED

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "scanlab/cuda_check.hpp"
#include "scanlab/section_size.hpp"
#include "scanlab/shared_alignment.hpp"

// Lab 06's tile toolkit, at this lab's tile shape: TilePolicy, the tile's shared memory, how a
// warp moves its part of the tile (load_items and store_items, and their steps take_items,
// put_items and store_rows), reduce_items, scan_items, warp_reduce, and block_exclusive_scan
// with a prefix callback. Built with -I pointing at the folder that holds the labs (the grader
// uses the reference of lab 06 there, so a bug in lab 06 costs points in lab 06 only).
#include "06-hierarchical/hierarchical_scan.cu"

// ---- The policy: the shape of a tile, and how long a waiting warp sleeps ------------------

// Lab 06's TilePolicy (items per thread, the block's size, the turning area), and the back-off.
template <unsigned Threads, unsigned ItemsPerThread, unsigned BackoffNs>
struct ScanPolicy : TilePolicy<ItemsPerThread, Threads> {
    static_assert(Threads % kWarpSize == 0 && Threads >= kWarpSize && Threads <= kWarpSize * kWarpSize,
                  "a block is 1 to 32 whole warps");
    static constexpr unsigned kBackoffNs = BackoffNs;  // sleep between polls of a status word; 0: spin
    static constexpr unsigned kTileSize = Threads * ItemsPerThread;
};

// The tuning, one place per architecture. Measured on an H100 (sm_90) against
// cub::DeviceScan::InclusiveSum in the same run (reports/lab_tuning/lab09_tuning.cu):
// a tile costs a fixed time beyond its bytes (the ticket, the barriers, the look-back), so large
// tiles win, with as many items per thread as the registers hold without spilling (39, odd: the
// lanes' reads of the turning area hit different banks). 4-byte values: 512 threads, 1.0x to
// 1.13x CUB from 2^20 to 2^30 elements (2^24 is the close one: 0.997x to 1.03x over six runs;
// 85% of a copy at 2^28). 8-byte values: 256 threads, 0.94x
// to 1.05x CUB (91% of a copy at 2^28; a sleep of 0 to 200 ns between polls changes nothing;
// a state word stored with release and polled with acquire instead of the state in every word:
// 0.84x at 2^28). Other architectures use the Hopper tuning until they are measured.
struct HopperTuning {
    template <class T>
    using Policy = ScanPolicy<sizeof(T) <= 4 ? 512 : 256, 39, sizeof(T) <= 4 ? 0 : 100>;
};
template <class T>
using TunedPolicy = HopperTuning::Policy<T>;

// ---- The tiles' status words: what each tile has published ---------------------------------

enum TileState : unsigned {
    kNothingYet = 0,  // the tile has published nothing (what a reset leaves)
    kAggregate = 1,   // the tile's own total is there
    kInclusive = 2,   // the combination of everything up to the end of the tile is there
};

// What a reader saw of one tile: its state and the value published with it.
template <class T>
struct TileObservation {
    unsigned state;
    T value;
};

// The status of every tile of one call, and the ticket that numbers the tiles, in the caller's
// temporary storage (reset before each launch: every word kNothingYet, the ticket 0).
//
// The value is cut into 32-bit parts (one for values of at most 4 bytes, two for double and the
// affine maps), and each part is stored in a 64-bit word of its own beside a copy of the state:
// state in the high half, part in the low half, every word written and read whole. A word that
// shows a state holds that state's part, so no fence and no release or acquire is needed; a
// reader takes the value only when every word of the tile shows the same state (the aggregate's
// words are overwritten by the inclusive prefix's, and a reader may see some of each).
template <class T>
class TileStatus {
    static constexpr unsigned kParts = (sizeof(T) + sizeof(unsigned) - 1) / sizeof(unsigned);

public:
    static std::size_t bytes(unsigned tiles) {
        return std::size_t{tiles} * kParts * sizeof(unsigned long long) + sizeof(unsigned);
    }
    static TileStatus in(void* storage, unsigned tiles) {
        TileStatus status;
        status.words_ = static_cast<unsigned long long*>(storage);
        status.ticket_ = reinterpret_cast<unsigned*>(status.words_ + std::size_t{tiles} * kParts);
        return status;
    }

    __device__ unsigned take_ticket() const { return atomicAdd(ticket_, 1u); }

    __device__ void publish(unsigned tile, unsigned state, T value) const {
        // BEGIN SOLUTION
        unsigned parts[kParts] = {};
        std::memcpy(parts, &value, sizeof(T));
        volatile unsigned long long* const words = words_ + std::size_t{tile} * kParts;
        for (unsigned p = 0; p < kParts; ++p) {
            words[p] = static_cast<unsigned long long>(state) << 32 | parts[p];  //@ publish-part
        }
        // END SOLUTION
        // BEGIN PROMPT
        //| // TODO 1: for each 32-bit part of the value, one 64-bit store, through a volatile
        //| //         pointer, of the state (high half) and the part (low half) to the part's word.
        // END PROMPT
    }

    template <unsigned BackoffNs>
    __device__ TileObservation<T> wait_for(bool exists, unsigned tile) const {
        // BEGIN SOLUTION
        if (!exists) return {kAggregate, T{}};
        const volatile unsigned long long* const words = words_ + std::size_t{tile} * kParts;  //@ poll-pointer
        for (;;) {
            unsigned long long seen[kParts];
            for (unsigned p = 0; p < kParts; ++p) seen[p] = words[p];  //@ read-parts
            // Every word must carry the same state: a word still at the aggregate beside one
            // already at the inclusive prefix holds a part of a different value.
            const unsigned state = static_cast<unsigned>(seen[0] >> 32);
            bool same_state = state != kNothingYet;
            for (unsigned p = 1; p < kParts; ++p) same_state = same_state && static_cast<unsigned>(seen[p] >> 32) == state;  //@ same-state
            if (same_state) {
                unsigned parts[kParts];
                for (unsigned p = 0; p < kParts; ++p) parts[p] = static_cast<unsigned>(seen[p]);
                TileObservation<T> observed{state, T{}};
                std::memcpy(&observed.value, parts, sizeof(T));
                return observed;
            }
            if constexpr (BackoffNs > 0) __nanosleep(BackoffNs);  // the tile has its ticket: it will publish
        }
        // END SOLUTION
        // BEGIN PROMPT
        //| // TODO 2: read the tile's words through a volatile pointer until every one carries the
        //| //         same state and that state is not kNothingYet (sleeping BackoffNs between
        //| //         rounds when it is not 0); return that state and the value put together from
        //| //         the words' low halves.
        //| return {kNothingYet, T{}};
        // END PROMPT
    }

private:
    unsigned long long* words_ = nullptr;  // kParts words per tile
    unsigned* ticket_ = nullptr;
};

// ---- The look-back, run by one warp of a tile ------------------------------------------------

// Lab 06's block_exclusive_scan calls it with every lane of one warp, and block_total() gives
// the tile's aggregate; returns (to every lane) what comes before the tile, after publishing the
// tile's inclusive prefix. After CUB's TilePrefixCallbackOp.
template <class Policy, class T, class Op, class Status>
struct LookbackPrefix {
    Status status;
    unsigned tile;
    Op op;

    template <class BlockTotal>
    __device__ T operator()(const Warp& warp, const BlockTotal& block_total) const {
        const T aggregate = block_total();
        const unsigned lane = warp.thread_rank();
        if (tile == 0) {  // nothing comes before the first tile
            if (lane == 0) status.publish(0, kInclusive, aggregate);
            return op.identity();
        }
        // BEGIN SOLUTION
        if (lane == 0) status.publish(tile, kAggregate, aggregate);  //@ publish-aggregate
        // Windows of 32 tiles, nearest first; lane l of a window holds tile window_end - 31 + l,
        // so that lane order is the tiles' order. Tile 0 publishes its inclusive prefix, so a
        // window that reaches it ends the look-back.
        T before{};
        bool have_before = false;
        for (unsigned window_end = tile - 1;; window_end -= kWarpSize) {  //@ window-start
            const unsigned offset = kWarpSize - 1 - lane;  // how far before window_end
            const bool exists = offset <= window_end;        //@ window-guard
            const TileObservation<T> seen = status.template wait_for<Policy::kBackoffNs>(exists, window_end - offset);  //@ window-tile
            // The nearest inclusive prefix: the highest lane that saw one. The window's values
            // from that lane on (all of them if none) make up what this window contributes.
            const unsigned inclusive_lanes = warp.ballot(exists && seen.state == kInclusive);
            const unsigned first = inclusive_lanes == 0 ? 0 : kWarpSize - 1 - __clz(inclusive_lanes);
            const T window = warp_reduce(warp, warp.shfl_down(seen.value, first), kWarpSize - first, op);
            const T window_total = warp.shfl(window, 0);
            before = have_before ? op(window_total, before) : window_total;  //@ window-order
            have_before = true;
            if (inclusive_lanes != 0) break;
        }
        if (lane == 0) status.publish(tile, kInclusive, op(before, aggregate));
        return before;
        // END SOLUTION
        // BEGIN PROMPT
        //| // TODO 3: publish the tile's aggregate (one lane). Then look back over windows of 32
        //| //         tiles before this one, nearest window first: the warp waits for its tiles
        //| //         (status.wait_for<Policy::kBackoffNs>), a ballot finds the nearest tile that
        //| //         published its inclusive prefix, and the values from that tile on are combined
        //| //         in the tiles' order (lab 06's warp_reduce). Stop at the window that holds an
        //| //         inclusive prefix; publish this tile's inclusive prefix (one lane) and return
        //| //         what comes before the tile.
        //| return aggregate;
        // END PROMPT
    }
};

// ---- The tile in 16-byte moves ----------------------------------------------------------------

// Moving a warp's part 16 bytes at a time: possible for elements whose size divides 16, where
// the part is a whole number of vectors, laid out without padding in the turning area (an odd
// number of items per thread, as in the tuned policies).
using Vector = uint4;
template <class Policy, class T>
inline constexpr bool kMovesInVectors = sizeof(Vector) % sizeof(T) == 0 && !Policy::kPadded;

// Lab 06's load_items, with a whole part read in coalesced 16-byte vectors (all of them in
// flight at once) where the arrays allow it.
template <class Policy, class T, class Op>
__device__ void load_tile_part(const T* in, std::size_t warp_start, std::size_t n, bool vectors, const Warp& warp,
                               T* turning, T (&items)[Policy::kItemsPerThread], Op op) {
    if constexpr (kMovesInVectors<Policy, T>) {
        if (vectors && warp_start + Policy::kWarpPart <= n) {  //@ whole-part-load
            constexpr unsigned kVectors = Policy::kWarpPart * sizeof(T) / sizeof(Vector);
            constexpr unsigned kRounds = (kVectors + kWarpSize - 1) / kWarpSize;
            const unsigned lane = warp.thread_rank();
            const Vector* const source = reinterpret_cast<const Vector*>(in + warp_start);
            Vector* const target = reinterpret_cast<Vector*>(turning);
            Vector loaded[kRounds];
            for (unsigned r = 0; r < kRounds; ++r) {
                if (r * kWarpSize + lane < kVectors) loaded[r] = source[r * kWarpSize + lane];  //@ vector-read
            }
            for (unsigned r = 0; r < kRounds; ++r) {
                if (r * kWarpSize + lane < kVectors) target[r * kWarpSize + lane] = loaded[r];
            }
            take_items<Policy>(warp, turning, items);
            return;
        }
    }
    load_items<Policy>(in, warp_start, n, warp, turning, items, op);
}

// Lab 06's store_items, with a whole part written in 16-byte vectors where the arrays allow it.
template <class Policy, class T>
__device__ void store_tile_part(T* out, std::size_t warp_start, std::size_t n, bool vectors, const Warp& warp, T* turning,
                                const T (&items)[Policy::kItemsPerThread]) {
    put_items<Policy>(warp, turning, items);
    if constexpr (kMovesInVectors<Policy, T>) {
        if (vectors && warp_start + Policy::kWarpPart <= n) {
            constexpr unsigned kVectors = Policy::kWarpPart * sizeof(T) / sizeof(Vector);
            const Vector* const source = reinterpret_cast<const Vector*>(turning);
            Vector* const target = reinterpret_cast<Vector*>(out + warp_start);
            for (unsigned v = warp.thread_rank(); v < kVectors; v += kWarpSize) target[v] = source[v];
            return;
        }
    }
    store_rows<Policy>(out, warp_start, n, warp, turning);
}

// ---- The kernel -------------------------------------------------------------------------------

template <class Policy, class T, class Op>
__global__ void __launch_bounds__(Policy::kThreads)
    decoupled_lookback_kernel(const T* in, T* out, std::size_t n, bool vectors, TileStatus<T> status, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];  // tile_shared_bytes
    __shared__ unsigned shared_tile;  // this block's tile number
    const Warp warp = cg::tiled_partition<kWarpSize>(cg::this_thread_block());
    const TileShared<T> shared = tile_shared<Policy, T>(shared_bytes, warp);
    T items[Policy::kItemsPerThread];
    // BEGIN SOLUTION
    if (threadIdx.x == 0) shared_tile = status.take_ticket();  //@ ticket
    __syncthreads();  // every thread knows the tile  //@ ticket-barrier
    const unsigned tile = shared_tile;  //@ tile-read
    const std::size_t warp_start = warp_part_start<Policy>(tile, warp);
    load_tile_part<Policy>(in, warp_start, n, vectors, warp, shared.turning, items, op);
    const LookbackPrefix<Policy, T, Op, TileStatus<T>> lookback{status, tile, op};
    const T before = block_exclusive_scan(warp, reduce_items(items, op), shared.warp_values, lookback, op);
    scan_items(items, before, op);
    store_tile_part<Policy>(out, warp_start, n, vectors, warp, shared.turning, items);
    // END SOLUTION
    // BEGIN PROMPT
    //|
    //| // TODO 4: take this block's tile number from the ticket (one thread, shared through
    //| //         shared_tile), load the tile (load_tile_part), scan the block with the look-back
    //| //         as its prefix (lab 06's block_exclusive_scan with LookbackPrefix), scan each
    //| //         thread's items from what comes before them, and store them (store_tile_part).
    // END PROMPT
}

// ---- The host entry ---------------------------------------------------------------------------

// Like CUB's: called with d_temp_storage == nullptr, sets temp_storage_bytes to what a scan of n
// elements needs and returns; otherwise scans d_in[0, n) into d_out with that storage (at least
// temp_storage_bytes of device memory, kept by the caller across calls), on the default stream.
template <class Policy, class T, class Op>
void decoupled_lookback_scan(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out, std::size_t n,
                             Op op) {
    const std::size_t tiles_wide = scanlab::ceil_div(n, Policy::kTileSize);
    if (tiles_wide > 0xFFFFFFFFu) throw std::invalid_argument("more tiles than a 32-bit ticket can number: n = " + std::to_string(n));
    const auto tiles = static_cast<unsigned>(tiles_wide);
    const std::size_t needed = TileStatus<T>::bytes(tiles);
    if (d_temp_storage == nullptr) {
        temp_storage_bytes = needed;
        return;
    }
    if (temp_storage_bytes < needed) {
        throw std::invalid_argument("temporary storage of " + std::to_string(temp_storage_bytes) + " bytes, a scan of " +
                                    std::to_string(n) + " elements needs " + std::to_string(needed));
    }
    if (n == 0) return;
    // 16-byte loads and stores need 16-byte aligned arrays (cudaMalloc's are).
    const bool vectors = reinterpret_cast<std::uintptr_t>(d_in) % sizeof(Vector) == 0 &&
                         reinterpret_cast<std::uintptr_t>(d_out) % sizeof(Vector) == 0;
    // Tiles whose shared memory exceeds the 48 KiB a kernel gets by default opt in to more.
    constexpr std::size_t shared_bytes = tile_shared_bytes<Policy, T>(Policy::kThreads);
    if constexpr (shared_bytes > kMaxTileSharedBytes) {
        SCANLAB_CUDA_CHECK(cudaFuncSetAttribute(decoupled_lookback_kernel<Policy, T, Op>,
                                                cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)));
    }
    // BEGIN SOLUTION
    // Every call starts with no tile published and the ticket at 0.
    SCANLAB_CUDA_CHECK(cudaMemsetAsync(d_temp_storage, 0, needed));  //@ reset
    decoupled_lookback_kernel<Policy><<<tiles, Policy::kThreads, shared_bytes>>>(d_in, d_out, n, vectors,
                                                                                 TileStatus<T>::in(d_temp_storage, tiles), op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 5: reset the tiles' status words and the ticket in the temporary storage, launch
    //| //         one block of Policy::kThreads threads per tile, and check the launch.
    // END PROMPT
}

// The same with the tuning of this kit's GPUs (TunedPolicy).
template <class T, class Op>
void decoupled_lookback_scan(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out, std::size_t n,
                             Op op) {
    decoupled_lookback_scan<TunedPolicy<T>>(d_temp_storage, temp_storage_bytes, d_in, d_out, n, op);
}

#endif  // SCANLAB_LAB_09_DECOUPLED_LOOKBACK_CU_INCLUDED
