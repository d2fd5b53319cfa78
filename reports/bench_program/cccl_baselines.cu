// The newest CUB beside the toolkit's: built (as the program scanlab_bench_cccl) only where
// SCANLAB_CCCL_INCLUDE_DIR names the headers of a newer CCCL release (the `nvidia-cuda-cccl`
// wheel's include/cccl folder, reports/METHOD.md), which then come before the toolkit's in the
// whole program. Two series:
//
//   cub-cccl            cub::DeviceScan::InclusiveSum of that release, as a user calls it: on
//                       sm_90 it still runs the decoupled look-back scan, with that release's
//                       tuning
//   cub-cccl-warpspeed  the same release's warp-specialized scan (its "lookahead" algorithm: a
//                       loading warp with bulk copies into a ring of stages, reducing and
//                       scanning warps, a look-ahead warp), asked for through a policy selector:
//                       CUB picks it by itself on sm_100 and later, and on sm_90 only for a
//                       floating-point sum that must add in a fixed order. Its tuning is the one
//                       CUB falls back on where it has none (it has none for Hopper)
//
// Temporary storage as for the toolkit's CUB (scanlab/cub_scans.hpp): kept between calls.
#include <cuda_runtime.h>

#include <cub/device/device_scan.cuh>
#include <cub/version.cuh>

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>

#include "series.hpp"
#include "scanlab/cuda_check.hpp"
#include "scanlab/device_scratch.hpp"

#if CUB_VERSION < 300500
#error "scanlab_bench_cccl wants CCCL 3.5 or newer (SCANLAB_CCCL_INCLUDE_DIR)"
#endif

namespace scanlab::bench {
namespace {

// The warp-specialized scan at CUB's fallback tuning for any GPU: 4 reducing and scanning warps,
// a tile of 256 bytes per thread less one item (odd, so that the lanes' items spread over the
// banks), 4 look-ahead tiles per lane of the look-ahead warp.
template <class T>
struct WarpspeedSelector {
    static constexpr int kWarps = 4;
    static constexpr int kItemsPerThread = 256 / static_cast<int>(sizeof(T)) - 1;
    static constexpr int kLookaheadTilesPerLane = 4;
    constexpr cub::ScanPolicy operator()(::cuda::compute_capability) const {
        return {cub::ScanAlgorithm::lookahead, cub::ScanLookbackPolicy{},
                cub::ScanLookaheadPolicy{kWarps, kItemsPerThread, kLookaheadTilesPerLane}};
    }
};

class CcclScans {
public:
    template <class T>
    void inclusive_sum(const T* in, T* out, std::size_t n) {
        std::size_t bytes = 0;
        SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out, item_count(n)));
        SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(storage_.reserve(bytes), bytes, in, out, item_count(n)));
    }

    template <class T>
    void warpspeed_sum(const T* in, T* out, std::size_t n) {
        std::size_t bytes = 0;
        SCANLAB_CUDA_CHECK(warpspeed(nullptr, bytes, in, out, n));
        SCANLAB_CUDA_CHECK(warpspeed(storage_.reserve(bytes), bytes, in, out, n));
    }

private:
    template <class T>
    static cudaError_t warpspeed(void* storage, std::size_t& bytes, const T* in, T* out, std::size_t n) {
        return cub::DeviceScan::scan_impl_determinism<cub::ForceInclusive::Yes>(
            storage, bytes, in, out, ::cuda::std::plus<>{}, cub::NullType{}, item_count(n), cudaStream_t{},
            WarpspeedSelector<T>{});
    }

    // As for the toolkit's CUB: items counted in an int.
    static int item_count(std::size_t n) {
        if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
            throw std::invalid_argument("cub::DeviceScan takes at most 2^31 - 1 items");
        }
        return static_cast<int>(n);
    }

    DeviceScratch storage_;
};

CcclScans cccl_scans;

}  // namespace

void register_series(SeriesList& list) {
    const std::string version = "CCCL " + std::to_string(CUB_MAJOR_VERSION) + "." + std::to_string(CUB_MINOR_VERSION);

    SeriesInfo sum;
    sum.id = "baselines/cccl-inclusive-sum";
    sum.label = "cub::DeviceScan::InclusiveSum (" + version + ")";
    sum.algorithm = "cub-cccl";
    sum.role = "baseline";
    sum.counts_on_gpu = false;  // CUB applies its own `+`
    list.add(sum, [](auto in, auto out, std::size_t n, auto) { cccl_scans.inclusive_sum(in, out, n); });

    SeriesInfo warpspeed;
    warpspeed.id = "baselines/cccl-warpspeed-sum";
    warpspeed.label = "CUB's warp-specialized scan (" + version + ")";
    warpspeed.algorithm = "cub-cccl-warpspeed";
    warpspeed.role = "baseline";
    warpspeed.counts_on_gpu = false;
    list.add(warpspeed, [](auto in, auto out, std::size_t n, auto) { cccl_scans.warpspeed_sum(in, out, n); });
}

}  // namespace scanlab::bench
