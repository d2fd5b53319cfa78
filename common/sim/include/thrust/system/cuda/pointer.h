// Thrust's CUDA pointers for programs built for the scanlab CPU simulator (see
// execution_policy.h beside this file): thrust::cuda::pointer and universal_pointer are the
// pointers of the device system the simulator's Thrust runs in, its C++ system, as
// thrust::cuda::malloc and the memory resources (memory_resource.h) hand them out. Stands in for
// Thrust's header of the same name (CUDA back end, nvcc only).
#pragma once

#include <thrust/system/cpp/pointer.h>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cuda {

template <typename T>
using pointer = thrust::system::cpp::pointer<T>;
template <typename T>
using universal_pointer = thrust::system::cpp::universal_pointer<T>;
template <typename T>
using reference = thrust::system::cpp::reference<T>;

}  // namespace cuda
}  // namespace system

namespace cuda {
using thrust::system::cuda::pointer;
using thrust::system::cuda::reference;
using thrust::system::cuda::universal_pointer;
}  // namespace cuda
THRUST_NAMESPACE_END
