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
#if defined(SCANLAB_SIM)
        if (host_counter != nullptr && ::scanlab::sim::detail::current_coordinates == nullptr) {
            tally(host_counter);  // host code: no CUDA thread is running
            return;
        }
        tally(counter);
#elif defined(__CUDA_ARCH__)
        atomicAdd(counter, 1ULL);
#else
        __atomic_fetch_add(counter, 1ULL, __ATOMIC_RELAXED);
#endif
    }

#if defined(SCANLAB_SIM)
    // The counter is the grader's instrument, not the program's memory, so the simulator must
    // not see it: this function is left out of ThreadSanitizer's instrumentation, which takes
    // every other access of lab code to the simulator, and counts with a plain atomic of the
    // host. Seen, the counter would be a location that every thread of every block changes
    // with an atomic: a flag linking any access of one block to any later access of another,
    // so that a volatile status word read after it would be told it was handed on without a
    // release pattern, with the counter for its flag; and each application would be a
    // scheduling point of the simulator's atomics. Not inlined: inlined into lab code, the
    // atomic would be instrumented with it.
    __attribute__((no_sanitize("thread"), noinline)) static void tally(unsigned long long* application_counter) {
        __atomic_fetch_add(application_counter, 1ULL, __ATOMIC_RELAXED);
    }
#endif
};

}  // namespace scanlab
