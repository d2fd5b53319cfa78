// CountingOp: wraps an operator and tallies every application of it.
//
// The grader uses it to check the exact work an algorithm does (Kogge-Stone's
// S*log2(S) - (S-1) per section, for example). The counter lives where the operator runs:
// a device pointer when the wrapper is passed to a kernel, a host pointer in host code.
//
// On the simulator a wrapper meant for a kernel can also be given a second, host counter:
// applications made by host code (no simulated CUDA thread running) are tallied there instead,
// so the grader can tell a kernel's work from an answer computed on the CPU and copied back.
#pragma once

#include <cuda_runtime.h>

namespace scanlab {

template <class Op>
struct CountingOp {
    Op op;
    unsigned long long* counter;
    unsigned long long* host_counter = nullptr;  // simulator only: applications made by host code

    CountingOp(Op wrapped, unsigned long long* application_counter,
               unsigned long long* host_application_counter = nullptr)
        : op(wrapped), counter(application_counter), host_counter(host_application_counter) {}
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
#if defined(SCANLAB_SIM)
        if (host_counter != nullptr && ::scanlab::sim::detail::current_coordinates == nullptr) {
            atomicAdd(host_counter, 1ULL);  // host code: no CUDA thread is running
            return;
        }
        atomicAdd(counter, 1ULL);
#elif defined(__CUDA_ARCH__)
        atomicAdd(counter, 1ULL);
#else
        __atomic_fetch_add(counter, 1ULL, __ATOMIC_RELAXED);
#endif
    }
};

}  // namespace scanlab
