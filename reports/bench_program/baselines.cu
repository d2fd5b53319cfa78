// The baselines every lab is compared with, in the same run: std::inclusive_scan on the host;
// on a GPU, cub::DeviceScan, thrust::inclusive_scan and a device-to-device copy of the same
// bytes (the ceiling: a scan reads and writes each element at least once).
#include <cuda_runtime.h>

#include <cstddef>
#include <numeric>

#include "series.hpp"
#include "scanlab/cuda_check.hpp"

#ifndef SCANLAB_SIM
#include <cub/device/device_scan.cuh>
#include <thrust/execution_policy.h>
#include <thrust/scan.h>
#endif

namespace scanlab::bench {
namespace {

#ifndef SCANLAB_SIM
// CUB's temporary storage, allocated outside the timed region: the sweep's first call at each
// size is its untimed correctness run, which grows the buffer when it is too small; the timed
// calls that follow find it large enough.
class CubTemporaryStorage {
public:
    ~CubTemporaryStorage() { cudaFree(storage_); }
    void* reserve(std::size_t bytes) {
        if (bytes > capacity_) {
            SCANLAB_CUDA_CHECK(cudaFree(storage_));
            SCANLAB_CUDA_CHECK(cudaMalloc(&storage_, bytes));
            capacity_ = bytes;
        }
        return storage_;
    }

private:
    void* storage_ = nullptr;
    std::size_t capacity_ = 0;
};

CubTemporaryStorage cub_storage;

template <class T, class Op>
void cub_inclusive_scan(const T* in, T* out, std::size_t n, Op op) {
    const int items = static_cast<int>(n);  // the sweep's sizes stop at 2^30
    std::size_t bytes = 0;
    SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveScan(nullptr, bytes, in, out, op, items));
    void* storage = cub_storage.reserve(bytes);
    SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveScan(storage, bytes, in, out, op, items));
}
#endif

}  // namespace

void register_series(SeriesList& list) {
    SeriesInfo std_scan;
    std_scan.id = "baselines/std-inclusive-scan";
    std_scan.label = "std::inclusive_scan (1 CPU thread)";
    std_scan.algorithm = "std-inclusive-scan";
    std_scan.role = "baseline";
    std_scan.where = "cpu";
    list.add(std_scan, [](auto in, auto out, std::size_t n, auto op) { std::inclusive_scan(in, in + n, out, op); });

#ifndef SCANLAB_SIM
    SeriesInfo cub;
    cub.id = "baselines/cub-device-scan";
    cub.label = "cub::DeviceScan::InclusiveScan";
    cub.algorithm = "cub";
    cub.role = "baseline";
    list.add(cub, [](auto in, auto out, std::size_t n, auto op) { cub_inclusive_scan(in, out, n, op); });

    SeriesInfo thrust_scan;
    thrust_scan.id = "baselines/thrust-inclusive-scan";
    thrust_scan.label = "thrust::inclusive_scan";
    thrust_scan.algorithm = "thrust";
    thrust_scan.role = "baseline";
    list.add(thrust_scan, [](auto in, auto out, std::size_t n, auto op) {
        thrust::inclusive_scan(thrust::device, in, in + n, out, op);
    });

    SeriesInfo copy;
    copy.id = "baselines/device-copy";
    copy.label = "device-to-device copy";
    copy.algorithm = "copy";
    copy.role = "ceiling";
    copy.reference = Reference::copy;
    copy.counts_on_gpu = false;
    list.add(copy, [](auto in, auto out, std::size_t n, auto) {
        SCANLAB_CUDA_CHECK(cudaMemcpyAsync(out, in, n * sizeof(*in), cudaMemcpyDeviceToDevice));
    });
#endif
}

}  // namespace scanlab::bench
