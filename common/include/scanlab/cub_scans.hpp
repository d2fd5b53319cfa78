// CUB's device-wide inclusive scans, as a user calls them, with their temporary storage kept
// between calls: the library baselines of reports/bench and of the grader's performance checks.
//
//   InclusiveSum   what a user calls for `+`: CUB knows the operator and runs its tuning for
//                  sums (the faster one; every "of CUB" ratio in the reports is taken against it)
//   InclusiveScan  the generic call with a user's functor (scanlab::Plus here): CUB cannot tell
//                  it is a sum and runs its generic tuning
//
// nvcc only: CUB is part of the CUDA toolkit, not of the simulator.
#pragma once

#ifdef SCANLAB_SIM
#error "scanlab/cub_scans.hpp needs nvcc (CUB is part of the CUDA toolkit)"
#endif

#include <cuda_runtime.h>

#include <cstddef>
#include <limits>
#include <stdexcept>

#include <cub/device/device_scan.cuh>

#include "scanlab/cuda_check.hpp"
#include "scanlab/device_scratch.hpp"

namespace scanlab {

// CUB's temporary storage is kept between calls (DeviceScratch): allocated outside any timed
// region once an untimed call at a size has grown it.
class CubScans {
public:
    template <class T>
    void inclusive_sum(const T* in, T* out, std::size_t n) {
        const int items = item_count(n);
        std::size_t bytes = 0;
        SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out, items));
        SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveSum(storage_.reserve(bytes), bytes, in, out, items));
    }

    template <class T, class Op>
    void inclusive_scan(const T* in, T* out, std::size_t n, Op op) {
        const int items = item_count(n);
        std::size_t bytes = 0;
        SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveScan(nullptr, bytes, in, out, op, items));
        SCANLAB_CUDA_CHECK(cub::DeviceScan::InclusiveScan(storage_.reserve(bytes), bytes, in, out, op, items));
    }

private:
    // CUB's DeviceScan counts items in an int.
    static int item_count(std::size_t n) {
        if (n > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
            throw std::invalid_argument("cub::DeviceScan takes at most 2^31 - 1 items");
        }
        return static_cast<int>(n);
    }

    DeviceScratch storage_;
};

}  // namespace scanlab
