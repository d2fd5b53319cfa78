// The baselines every lab is compared with, in the same run: std::inclusive_scan on the host;
// on a GPU, cub::DeviceScan::InclusiveSum (the call a user makes for a sum), the generic
// cub::DeviceScan::InclusiveScan with the kit's functor, thrust::inclusive_scan and a
// device-to-device copy of the same bytes (the ceiling: a scan reads and writes each element at
// least once).
#include <cuda_runtime.h>

#include <cstddef>
#include <numeric>

#include "series.hpp"
#include "scanlab/cuda_check.hpp"

#ifndef SCANLAB_SIM
#include <thrust/execution_policy.h>
#include <thrust/scan.h>

#include "scanlab/cub_scans.hpp"
#endif

namespace scanlab::bench {
namespace {

#ifndef SCANLAB_SIM
scanlab::CubScans cub_scans;  // temporary storage sized by each size's untimed correctness run
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
    // CUB twice: the call a user makes for a sum (the baseline of every "of CUB" ratio), and
    // the generic call with the kit's own functor, which CUB cannot recognise as a sum.
    SeriesInfo cub_sum;
    cub_sum.id = "baselines/cub-inclusive-sum";
    cub_sum.label = "cub::DeviceScan::InclusiveSum";
    cub_sum.algorithm = "cub";
    cub_sum.role = "baseline";
    cub_sum.counts_on_gpu = false;  // CUB applies its own `+`: there is no operator to count
    list.add(cub_sum, [](auto in, auto out, std::size_t n, auto) { cub_scans.inclusive_sum(in, out, n); });

    SeriesInfo cub_generic;
    cub_generic.id = "baselines/cub-inclusive-scan-functor";
    cub_generic.label = "cub::DeviceScan::InclusiveScan (kit's Plus functor)";
    cub_generic.algorithm = "cub-generic";
    cub_generic.role = "baseline";
    list.add(cub_generic, [](auto in, auto out, std::size_t n, auto op) { cub_scans.inclusive_scan(in, out, n, op); });

    SeriesInfo thrust_scan;
    thrust_scan.id = "baselines/thrust-inclusive-scan";
    thrust_scan.label = "thrust::inclusive_scan";
    thrust_scan.algorithm = "thrust";
    thrust_scan.role = "baseline";
    thrust_scan.counts_on_gpu = false;  // as a user calls it for a sum: Thrust's own `+`
    list.add(thrust_scan, [](auto in, auto out, std::size_t n, auto) {
        thrust::inclusive_scan(thrust::device, in, in + n, out);
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
