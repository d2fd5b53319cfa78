// Lab 09's host entry, as the suite calls it: with a policy (threads, items per thread,
// back-off) and the caller's temporary storage, like CUB's.
#pragma once

#include <cstddef>

#include "scanlab/cuda_check.hpp"
#include "suite_policies.hpp"
#include "temp_storage.hpp"
#include "whole_scan_checks.hpp"

template <class Policy, class T, class Op>
void decoupled_lookback_scan(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out, std::size_t n,
                             Op op);

// The entry with the lab's tuned policy, as a user calls it, and the reference solution's,
// beside the submission's for the performance check (performance_reference.cu; cuda only).
template <class T, class Op>
void decoupled_lookback_scan(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out, std::size_t n,
                             Op op);
namespace scanlab_reference {
template <class T, class Op>
void decoupled_lookback_scan(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out, std::size_t n,
                             Op op);
}  // namespace scanlab_reference

namespace lab09 {

using namespace scanlab::grading;
using scanlab::kWholeArray;
using scanlab::Plus;
using scanlab::ScanKind;

// A policy's tile size, where the test files see ScanPolicy only declared.
template <class Policy>
struct TileOf;
template <unsigned Threads, unsigned Items, unsigned Backoff>
struct TileOf<ScanPolicy<Threads, Items, Backoff>> {
    static constexpr unsigned kSize = Threads * Items;
    static constexpr unsigned kItems = Items;
};
static_assert(TileOf<SmallPolicy>::kSize == kSmallTile && TileOf<MediumPolicy>::kSize == 2 * kSmallTile &&
                  TileOf<LargePolicy>::kSize == kLargeTile && TileOf<SmallPolicy>::kItems == kTileItemsPerThread,
              "the suite's policies have the tiles of whole_scan_checks.hpp");

// One scan the way a caller makes it: ask for the temporary storage, allocate it, scan, free it.
template <class Policy, class T, class Op>
void scan_with_storage(const T* in, T* out, std::size_t n, Op op) {
    const auto scan = [&](void* storage, std::size_t& bytes) { decoupled_lookback_scan<Policy>(storage, bytes, in, out, n, op); };
    TempStorage storage(scan);
    scan(storage.data(), storage.bytes());
}

// The whole-array entry of whole_scan_checks.hpp: the tile size picks the policy.
inline constexpr auto kLookback = [](const auto* in, auto* out, std::size_t n, unsigned tile_size, auto op) {
    switch (tile_size) {
    case TileOf<SmallPolicy>::kSize: return scan_with_storage<SmallPolicy>(in, out, n, op);
    case TileOf<MediumPolicy>::kSize: return scan_with_storage<MediumPolicy>(in, out, n, op);
    case TileOf<LargePolicy>::kSize: return scan_with_storage<LargePolicy>(in, out, n, op);
    default: FAIL() << "no policy of the suite has tiles of " << tile_size << " elements";
    }
};

// The tuned policy, whose tile size the suite does not know.
inline constexpr auto kTunedLookback = [](const auto* in, auto* out, std::size_t n, unsigned /*tile_size*/, auto op) {
    const auto scan = [&](void* storage, std::size_t& bytes) { decoupled_lookback_scan(storage, bytes, in, out, n, op); };
    TempStorage storage(scan);
    scan(storage.data(), storage.bytes());
};

}  // namespace lab09
