// Thrust's CUDA execution policies for programs built for the scanlab CPU simulator, which builds
// Thrust with its C++ device system (scanlab/sim/cuda.hpp): thrust::cuda::par, par_nosync,
// par(allocator), par.on(stream) and their combinations run the algorithm in that system, the
// one thrust::device names, over device memory as well as over a device_vector's storage
// (runtime/memory/thrust_access.hpp checks what it touches in cudaMalloc memory). Kernels and copies
// complete when they are called here, so a stream orders nothing that is not ordered already:
// on(stream) keeps the policy as it is.
//
// This file stands in for the header of the same name in Thrust, which would bring in Thrust's
// CUDA back end, code for nvcc only.
#pragma once

#include <thrust/detail/allocator_aware_execution_policy.h>
#include <thrust/system/cpp/execution_policy.h>

#include "scanlab/sim/cuda.hpp"

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cuda {
namespace detail {

template <typename Derived>
struct execution_policy : thrust::system::cpp::detail::execution_policy<Derived> {
  __host__ Derived on(cudaStream_t) const { return static_cast<const Derived&>(*this); }
};

struct par_t : execution_policy<par_t>, thrust::detail::allocator_aware_execution_policy<execution_policy> {
  __host__ __device__ constexpr par_t() {}
};

}  // namespace detail

THRUST_INLINE_CONSTANT detail::par_t par;
THRUST_INLINE_CONSTANT detail::par_t par_nosync;

}  // namespace cuda
}  // namespace system

namespace cuda {
using thrust::system::cuda::par;
using thrust::system::cuda::par_nosync;
}  // namespace cuda
THRUST_NAMESPACE_END
