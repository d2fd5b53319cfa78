// Lab 10 in reports/bench: the warp-specialized scan of the whole array with the tuned policy
// (lab 09's path below 8 tiles per block for 4-byte values, 12 for 8-byte ones), and the
// pipeline at every size, small arrays included, to show where it starts to pay. The temporary
// storage is the caller's, as CUB's is: allocated once and kept (it grows to the largest size
// asked for), so that no allocation falls inside a timed call.
#include SCANLAB_LAB_SOURCE

#include <type_traits>

#include "series.hpp"
#include "scanlab/device_scratch.hpp"

namespace {

// The temporary storage kept across calls of every series of this program.
scanlab::DeviceScratch kept_storage;

// scan(storage, bytes) as the host entry: once to size the storage, then to scan with it.
template <class Scan>
void scan_with_kept_storage(Scan scan) {
    std::size_t bytes = 0;
    scan(nullptr, bytes);
    scan(kept_storage.reserve(bytes), bytes);
}

template <class T>
using Tuned = lab10::TunedPolicy<T>;

// The tuned pipeline with no minimum of tiles per block: the pipeline at every size.
template <class T>
using AlwaysPipelined = lab10::PipelinePolicy<Tuned<T>::kScanWarps, Tuned<T>::kReduceWarps, Tuned<T>::kItemsPerThread,
                                              Tuned<T>::kStages, Tuned<T>::kBlocksPerSm, 0, Tuned<T>::kBackoffNs>;

template <class In>
using ElementOf = std::remove_cv_t<std::remove_pointer_t<In>>;

}  // namespace

void scanlab::bench::register_series(SeriesList& list) {
    using Int = Tuned<int>;  // the series are int32 and float32: 4-byte values
    const SeriesInfo pipeline = lab_series("10-warp-specialized", "warp_specialized_scan", "10 warp-specialized",
                                           "warp-specialized", "whole-array", Int::kThreads, Int::kTileSize);
    list.add(pipeline, [](auto in, auto out, std::size_t n, auto op) {  // the ring the device allows
        scan_with_kept_storage([&](void* storage, std::size_t& bytes) { warp_specialized_scan(storage, bytes, in, out, n, op); });
    });
    SeriesInfo always = pipeline;
    always.id += "/pipeline-at-every-size";
    always.label += ", pipeline at every size";
    list.add(always, [](auto in, auto out, std::size_t n, auto op) {
        scan_with_kept_storage([&](void* storage, std::size_t& bytes) {
            warp_specialized_scan<AlwaysPipelined<ElementOf<decltype(in)>>>(storage, bytes, in, out, n, op);
        });
    });
}
