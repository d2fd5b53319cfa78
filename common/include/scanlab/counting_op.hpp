// CountingOp: wraps an operator and tallies every application of it.
//
// The grader uses it to check the exact work an algorithm does (Kogge-Stone's
// S*log2(S) - (S-1) per section, for example). The counter lives where the operator runs:
// a device pointer when the wrapper is passed to a kernel, a host pointer in host code.
#pragma once

#include <cuda_runtime.h>

namespace scanlab {

template <class Op>
struct CountingOp {
    Op op;
    unsigned long long* counter;

    CountingOp(Op wrapped, unsigned long long* application_counter)
        : op(wrapped), counter(application_counter) {}
    explicit CountingOp(unsigned long long* application_counter)
        : op(), counter(application_counter) {}

    template <class T>
    __host__ __device__ T operator()(const T& a, const T& b) const {
        count_one();
        return op(a, b);
    }

    __host__ __device__ auto identity() const { return op.identity(); }

private:
    __host__ __device__ void count_one() const {
        // Many threads apply the operator at once, so the increment must be atomic.
        // The simulator (SCANLAB_SIM) runs device code as host code and provides atomicAdd
        // there too, so its race checker sees the increment as an atomic access.
#if defined(SCANLAB_SIM) || defined(__CUDA_ARCH__)
        atomicAdd(counter, 1ULL);
#else
        __atomic_fetch_add(counter, 1ULL, __ATOMIC_RELAXED);
#endif
    }
};

}  // namespace scanlab
