// Associative binary operators with an identity, the element of every scan in scanlab.
//
// Convention shared by every lab: `op(a, b)` combines an EARLIER value `a` (the running
// prefix) with a LATER value `b`. Kernels must keep that order; the grader checks it with
// ComposeAffine, which is associative but not commutative.
//
// Operators are passed BY VALUE into host entries and kernels (never default-constructed in
// device code), so stateful wrappers such as CountingOp work unchanged.
#pragma once

#include <cuda_runtime.h>

#include <limits>

#include "scanlab/affine_map.hpp"

namespace scanlab {

template <class T>
struct Plus {
    __host__ __device__ T operator()(const T& a, const T& b) const { return a + b; }
    __host__ __device__ T identity() const { return T(0); }
};

template <class T>
struct Max {
    __host__ __device__ T operator()(const T& a, const T& b) const { return a < b ? b : a; }
    // lowest(), not min(): for floating types min() is the smallest positive value. Held in a
    // constexpr variable because device code may use its value but not call the host-only
    // std::numeric_limits functions.
    static constexpr T kLowest = std::numeric_limits<T>::lowest();
    __host__ __device__ T identity() const { return kLowest; }
};

}  // namespace scanlab
