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
//| //   - The warp scan comes from lab 06, included below, not copied here.
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

// Lab 06's toolkit: Warp, kWarpSize and warp_inclusive_scan, the scan of a warp's values with
// shuffles. Built with -I pointing at the folder that holds the labs (the grader uses the
// reference of lab 06 there, so a bug in lab 06 costs points in lab 06 only).
#include "06-hierarchical/hierarchical_scan.cu"

// ---- The policy: the shape of a tile, and how long a waiting warp sleeps ------------------

template <unsigned Threads, unsigned ItemsPerThread, unsigned BackoffNs>
struct ScanPolicy {
    static_assert(Threads % kWarpSize == 0 && Threads >= kWarpSize && Threads <= kWarpSize * kWarpSize,
                  "a block is 1 to 32 whole warps");
    static_assert(ItemsPerThread >= 1, "a thread holds at least one item");
    static constexpr unsigned kThreads = Threads;
    static constexpr unsigned kItemsPerThread = ItemsPerThread;
    static constexpr unsigned kBackoffNs = BackoffNs;  // sleep between polls of a status word; 0: spin
    static constexpr unsigned kWarps = Threads / kWarpSize;
    static constexpr unsigned kTileSize = Threads * ItemsPerThread;
};

// The tuning, one place per architecture. Measured on an H100 (sm_90) against
// cub::DeviceScan::InclusiveSum in the same run (grader/labs/09-decoupled-lookback/tuning.cu):
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
        const volatile unsigned long long* const words = words_ + std::size_t{tile} * kParts;
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

// Called by every lane of one warp with the tile's aggregate; returns (to every lane) what comes
// before the tile, after publishing the tile's inclusive prefix. After CUB's
// TilePrefixCallbackOp.
template <class Policy, class T, class Op, class Status>
struct LookbackPrefix {
    Status status;
    unsigned tile;
    Op op;

    __device__ T operator()(const Warp& warp, T aggregate) const {
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

// ---- The tile in shared memory and in registers ---------------------------------------------

// Shared memory of a block: each warp's turning area (its 32 lanes' items), then one value per
// warp (its total, later what comes before it).
template <class Policy, class T>
struct TileLayout {
    static constexpr unsigned kWarpPart = kWarpSize * Policy::kItemsPerThread;  // elements
    static constexpr std::size_t kBytes = (Policy::kWarps * kWarpPart + Policy::kWarps) * sizeof(T);
};

// Moving data 16 bytes at a time: possible for elements whose size divides 16, where a warp's
// part (32 lanes' items) is a whole number of vectors.
using Vector = uint4;
template <class T>
inline constexpr bool kMovesInVectors = sizeof(Vector) % sizeof(T) == 0;

// Loads this lane's items of the warp's part, which starts at element warp_start (identity
// past n). The warp reads its part in coalesced 16-byte vectors (all of them in flight at once)
// into its turning area, and each lane takes its consecutive items from there. With an odd
// number of items per thread the lanes' scalar reads hit different banks.
template <class Policy, class T, class Op>
__device__ void load_warp_part(const T* in, std::size_t warp_start, std::size_t n, bool vectors, const Warp& warp,
                               T* turning, T (&items)[Policy::kItemsPerThread], Op op) {
    constexpr unsigned kPart = TileLayout<Policy, T>::kWarpPart;
    const unsigned lane = warp.thread_rank();
    if constexpr (kMovesInVectors<T>) {
        if (vectors && warp_start + kPart <= n) {
            constexpr unsigned kVectors = kPart * sizeof(T) / sizeof(Vector);
            constexpr unsigned kRounds = (kVectors + kWarpSize - 1) / kWarpSize;
            const Vector* const source = reinterpret_cast<const Vector*>(in + warp_start);
            Vector* const target = reinterpret_cast<Vector*>(turning);
            Vector loaded[kRounds];
            for (unsigned r = 0; r < kRounds; ++r) {
                if (r * kWarpSize + lane < kVectors) loaded[r] = source[r * kWarpSize + lane];
            }
            for (unsigned r = 0; r < kRounds; ++r) {
                if (r * kWarpSize + lane < kVectors) target[r * kWarpSize + lane] = loaded[r];
            }
            warp.sync();  // the part is in before the lanes read their items
            for (unsigned i = 0; i < Policy::kItemsPerThread; ++i) items[i] = turning[lane * Policy::kItemsPerThread + i];
            return;
        }
    }
    for (unsigned k = lane; k < kPart; k += kWarpSize) turning[k] = warp_start + k < n ? in[warp_start + k] : op.identity();
    warp.sync();  // the part is in before the lanes read their items  //@ load-sync
    for (unsigned i = 0; i < Policy::kItemsPerThread; ++i) items[i] = turning[lane * Policy::kItemsPerThread + i];  //@ items-read
}

// The reverse of load_warp_part (positions below n only). A lane overwrites only the places it
// read itself, so no barrier is needed before.
template <class Policy, class T>
__device__ void store_warp_part(T* out, std::size_t warp_start, std::size_t n, bool vectors, const Warp& warp, T* turning,
                                const T (&items)[Policy::kItemsPerThread]) {
    constexpr unsigned kPart = TileLayout<Policy, T>::kWarpPart;
    const unsigned lane = warp.thread_rank();
    for (unsigned i = 0; i < Policy::kItemsPerThread; ++i) turning[lane * Policy::kItemsPerThread + i] = items[i];
    warp.sync();  // every lane's items are in before the part is read  //@ store-sync
    if constexpr (kMovesInVectors<T>) {
        if (vectors && warp_start + kPart <= n) {
            constexpr unsigned kVectors = kPart * sizeof(T) / sizeof(Vector);
            const Vector* const source = reinterpret_cast<const Vector*>(turning);
            Vector* const target = reinterpret_cast<Vector*>(out + warp_start);
            for (unsigned v = lane; v < kVectors; v += kWarpSize) target[v] = source[v];
            return;
        }
    }
    for (unsigned k = lane; k < kPart; k += kWarpSize) {
        if (warp_start + k < n) out[warp_start + k] = turning[k];  //@ store
    }
}

template <unsigned Items, class T, class Op>
__device__ T combine_items(const T (&items)[Items], Op op) {
    T total = items[0];
    for (unsigned i = 1; i < Items; ++i) total = op(total, items[i]);
    return total;
}

// ---- The block scan with a prefix callback ---------------------------------------------------

// Each thread gets what comes before its value: the values of the threads before it in the
// block, after what `prefix` returns for the block's total. Warp 0 calls prefix(warp, total)
// (the look-back) between the two barriers, while the other warps wait. After CUB's BlockScan
// with a block prefix callback.
template <class T, class Op, class Prefix>
__device__ T block_exclusive_scan_with_prefix(const Warp& warp, T value, T* warp_values, const Prefix& prefix, Op op) {
    const unsigned lane = warp.thread_rank();
    // BEGIN SOLUTION
    const T inclusive = warp_inclusive_scan(warp, value, kWarpSize, op);
    const T earlier_lanes = warp.shfl_up(inclusive, 1);  // lane 0: nothing before it in the warp
    if (lane == kWarpSize - 1) warp_values[warp.meta_group_rank()] = inclusive;
    __syncthreads();  // every warp's total is in before warp 0 scans them  //@ totals-barrier
    if (warp.meta_group_rank() == 0) {
        const unsigned warps = warp.meta_group_size();
        const T total = lane < warps ? warp_values[lane] : op.identity();
        const T totals_through = warp_inclusive_scan(warp, total, warps, op);
        const T earlier_warps = warp.shfl_up(totals_through, 1);
        const T before_block = prefix(warp, warp.shfl(totals_through, warps - 1));
        if (lane < warps) warp_values[lane] = lane == 0 ? before_block : op(before_block, earlier_warps);
    }
    __syncthreads();  // what comes before each warp is in  //@ prefix-barrier
    const T before_warp = warp_values[warp.meta_group_rank()];  //@ before-warp-read
    return lane == 0 ? before_warp : op(before_warp, earlier_lanes);
    // END SOLUTION
    // BEGIN PROMPT
    //| // TODO 4: scan the threads' values within each warp (warp_inclusive_scan); warp 0 scans
    //| //         the warps' totals, calls prefix(warp, block total) to learn what comes before
    //| //         the block, and turns the totals into what comes before each warp; return what
    //| //         comes before this thread.
    //| return value;
    // END PROMPT
}

// ---- The kernel -------------------------------------------------------------------------------

template <class Policy, class T, class Op>
__global__ void __launch_bounds__(Policy::kThreads)
    decoupled_lookback_kernel(const T* in, T* out, std::size_t n, bool vectors, TileStatus<T> status, Op op) {
    using Layout = TileLayout<Policy, T>;
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char shared_bytes[];  // Layout::kBytes
    __shared__ unsigned shared_tile;  // this block's tile number
    const Warp warp = cg::tiled_partition<kWarpSize>(cg::this_thread_block());
    T* const turning = reinterpret_cast<T*>(shared_bytes) + warp.meta_group_rank() * Layout::kWarpPart;
    T* const warp_values = reinterpret_cast<T*>(shared_bytes) + Policy::kWarps * Layout::kWarpPart;
    T items[Policy::kItemsPerThread];
    // BEGIN SOLUTION
    if (threadIdx.x == 0) shared_tile = status.take_ticket();  //@ ticket
    __syncthreads();  // every thread knows the tile  //@ ticket-barrier
    const unsigned tile = shared_tile;  //@ tile-read
    const std::size_t warp_start = (static_cast<std::size_t>(tile) * Policy::kWarps + warp.meta_group_rank()) * Layout::kWarpPart;
    load_warp_part<Policy>(in, warp_start, n, vectors, warp, turning, items, op);
    const T own_total = combine_items(items, op);
    const LookbackPrefix<Policy, T, Op, TileStatus<T>> lookback{status, tile, op};
    T running = block_exclusive_scan_with_prefix(warp, own_total, warp_values, lookback, op);
    for (unsigned i = 0; i < Policy::kItemsPerThread; ++i) {
        running = op(running, items[i]);  //@ finish
        items[i] = running;
    }
    store_warp_part<Policy>(out, warp_start, n, vectors, warp, turning, items);
    // END SOLUTION
    // BEGIN PROMPT
    //|
    //| // TODO 5: take this block's tile number from the ticket (one thread, shared through
    //| //         shared_tile), load the tile (load_warp_part), combine each thread's items, scan
    //| //         the block with the look-back as its prefix (LookbackPrefix), finish the items
    //| //         from what comes before them and store them (store_warp_part).
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
    constexpr std::size_t shared_bytes = TileLayout<Policy, T>::kBytes;
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
    //| // TODO 6: reset the tiles' status words and the ticket in the temporary storage, launch
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
