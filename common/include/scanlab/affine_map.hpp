// Composition of affine maps x -> a*x + b: the non-commutative associative operator of the kit.
//
// Scanning a sequence of maps f_0, f_1, ... with ComposeAffine yields, at position i, the map
// "apply f_0, then f_1, ..., then f_i". That is how a first-order linear recurrence
// y_i = a_i * y_{i-1} + b_i becomes a scan. Composition is associative but not commutative,
// so an implementation that swaps the operands of `op` produces wrong answers.
//
// With unsigned integer coefficients all arithmetic wraps modulo 2^32 (or 2^64), so results
// are exact and comparisons need no tolerance.
#pragma once

#include <cuda_runtime.h>

#include <ostream>

namespace scanlab {

// An aggregate on purpose: a value-initialised AffineMap is {0, 0}, the constant-zero map,
// which is NOT the identity. Code that writes T{} where op.identity() belongs is caught.
template <class T>
struct AffineMap {
    T a;  // slope
    T b;  // offset

    __host__ __device__ T operator()(const T& x) const { return a * x + b; }
};

template <class T>
__host__ __device__ bool operator==(const AffineMap<T>& f, const AffineMap<T>& g) {
    return f.a == g.a && f.b == g.b;
}

template <class T>
__host__ __device__ bool operator!=(const AffineMap<T>& f, const AffineMap<T>& g) {
    return !(f == g);
}

template <class T>
std::ostream& operator<<(std::ostream& os, const AffineMap<T>& f) {
    return os << "{a=" << f.a << ", b=" << f.b << "}";
}

// compose(f, g) = "apply f, then g": g(f(x)) = g.a * (f.a * x + f.b) + g.b.
template <class T>
struct ComposeAffine {
    __host__ __device__ AffineMap<T> operator()(const AffineMap<T>& f, const AffineMap<T>& g) const {
        return AffineMap<T>{g.a * f.a, g.a * f.b + g.b};
    }
    __host__ __device__ AffineMap<T> identity() const { return AffineMap<T>{T(1), T(0)}; }
};

}  // namespace scanlab
