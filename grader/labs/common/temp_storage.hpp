// The caller's temporary storage of a scan that works in storage its caller provides, as CUB's
// do (labs 09 and 10): asked for with a null pointer, allocated once, passed to the scan.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "scanlab/cuda_check.hpp"

namespace scanlab::grading {

// The temporary storage of one scan, as large as `query(nullptr, bytes)` asks for.
class TempStorage {
public:
    template <class Query>
    explicit TempStorage(Query query) {
        query(nullptr, bytes_);
        SCANLAB_CUDA_CHECK(cudaMalloc(&storage_, bytes_ == 0 ? 1 : bytes_));
    }
    ~TempStorage() { cudaFree(storage_); }
    TempStorage(const TempStorage&) = delete;
    TempStorage& operator=(const TempStorage&) = delete;
    void* data() const { return storage_; }
    std::size_t& bytes() { return bytes_; }

private:
    void* storage_ = nullptr;
    std::size_t bytes_ = 0;
};

}  // namespace scanlab::grading
