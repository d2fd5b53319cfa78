// A counter for CountingOp in host or device memory, read back after the scan.
#pragma once

#include <cuda_runtime.h>

#include "scanlab/counting_op.hpp"
#include "scanlab/cuda_check.hpp"
#include "test_array.hpp"

namespace scanlab::grading {

class OperationCounter {
public:
    explicit OperationCounter(Space space) : space_(space) {
        if (space_ == Space::device) {
            SCANLAB_CUDA_CHECK(cudaMalloc(&counter_, sizeof(*counter_)));
            SCANLAB_CUDA_CHECK(cudaMemset(counter_, 0, sizeof(*counter_)));
        } else {
            counter_ = new unsigned long long(0);
        }
    }
    ~OperationCounter() {
        if (space_ == Space::device) {
            cudaFree(counter_);
        } else {
            delete counter_;
        }
    }
    OperationCounter(const OperationCounter&) = delete;
    OperationCounter& operator=(const OperationCounter&) = delete;

    template <class Op>
    CountingOp<Op> wrap(Op op) const {
        return CountingOp<Op>(op, counter_);
    }

    unsigned long long count() const {
        if (space_ == Space::host) return *counter_;
        unsigned long long value = 0;
        SCANLAB_CUDA_CHECK(cudaMemcpy(&value, counter_, sizeof(value), cudaMemcpyDeviceToHost));
        return value;
    }

private:
    Space space_;
    unsigned long long* counter_ = nullptr;
};

}  // namespace scanlab::grading
