// Device memory that a caller keeps between calls and grows on demand: the temporary storage
// of a scan whose entry takes it from its caller (CUB's, lab 09's). The first call at a size (an
// untimed one, such as a correctness run) grows it; later calls at that size allocate nothing,
// so that a timed call times the scan alone.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "scanlab/cuda_check.hpp"

namespace scanlab {

class DeviceScratch {
public:
    DeviceScratch() = default;
    ~DeviceScratch() { cudaFree(storage_); }
    DeviceScratch(const DeviceScratch&) = delete;
    DeviceScratch& operator=(const DeviceScratch&) = delete;

    // At least `bytes` of device memory, valid until the next call that asks for more.
    void* reserve(std::size_t bytes) {
        if (bytes > capacity_) {
            SCANLAB_CUDA_CHECK(cudaFree(storage_));
            storage_ = nullptr;
            SCANLAB_CUDA_CHECK(cudaMalloc(&storage_, bytes));
            capacity_ = bytes;
        }
        return storage_;
    }

private:
    void* storage_ = nullptr;
    std::size_t capacity_ = 0;
};

}  // namespace scanlab
