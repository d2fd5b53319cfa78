// A counter for CountingOp in host or device memory, read back after the scan.
//
// A device counter also watches where the work happens: on the simulator, applications made
// by host code (the answer computed on the CPU and copied back) are tallied apart, and reading
// the count then fails the test with HOST_COMPUTATION_MARK, which makes the grader fail the
// whole lab with that reason (grading.py).
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "scanlab/counting_op.hpp"
#include "scanlab/cuda_check.hpp"
#include "test_array.hpp"

namespace scanlab::grading {

// The grader looks for this text in a failed test's messages (grader/scanlab_grader/grading.py).
inline constexpr const char* HOST_COMPUTATION_MARK = "host computation:";

class OperationCounter {
public:
    explicit OperationCounter(Space space) : space_(space) {
        if (space_ == Space::device) {
            SCANLAB_CUDA_CHECK(cudaMalloc(&counter_, sizeof(*counter_)));
            SCANLAB_CUDA_CHECK(cudaMemset(counter_, 0, sizeof(*counter_)));
#ifdef SCANLAB_SIM
            host_counter_ = new unsigned long long(0);
#endif
        } else {
            counter_ = new unsigned long long(0);
        }
    }
    ~OperationCounter() {
        if (space_ == Space::device) {
            cudaFree(counter_);
            delete host_counter_;
        } else {
            delete counter_;
        }
    }
    OperationCounter(const OperationCounter&) = delete;
    OperationCounter& operator=(const OperationCounter&) = delete;

    template <class Op>
    CountingOp<Op> wrap(Op op) const {
        return CountingOp<Op>(op, counter_, host_counter_);
    }

    unsigned long long count() const {
        if (space_ == Space::host) return *counter_;
        if (host_counter_ != nullptr && *host_counter_ != 0) {
            ADD_FAILURE() << HOST_COMPUTATION_MARK << " host code, outside every CUDA thread, applied the "
                          << "operator " << *host_counter_ << (*host_counter_ == 1 ? " time" : " times")
                          << ": this lab's work must happen in its kernels, not on the CPU";
        }
        unsigned long long value = 0;
        SCANLAB_CUDA_CHECK(cudaMemcpy(&value, counter_, sizeof(value), cudaMemcpyDeviceToHost));
        return value;
    }

private:
    Space space_;
    unsigned long long* counter_ = nullptr;
    unsigned long long* host_counter_ = nullptr;  // simulator, device counters: host code's applications
};

}  // namespace scanlab::grading
