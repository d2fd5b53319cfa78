// Thrust's CUDA memory resources for programs built for the scanlab CPU simulator (see
// execution_policy.h beside this file): thrust::cuda::memory_resource allocates with cudaMalloc,
// universal_memory_resource with cudaMallocManaged and universal_host_pinned_memory_resource
// with cudaMallocHost, as Thrust's CUDA back end does, and they hand out pointers of the device
// system the simulator's Thrust runs in (thrust::cuda::pointer, universal_pointer). So
// thrust::mr::allocator, the pools of <thrust/mr/*.h>, a device_vector over them and
// thrust::cuda::par(allocator) work as under nvcc, and what a resource hands out is device (or
// managed, or pinned) memory that the simulator checks as cudaMalloc's. A failed allocation
// throws thrust::system::detail::bad_alloc; a failed free, std::runtime_error. Stands in for
// Thrust's header of the same name (CUDA back end, nvcc only).
#pragma once

#include <thrust/mr/memory_resource.h>
#include <thrust/system/detail/bad_alloc.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "scanlab/sim/cuda.hpp"
#include <thrust/system/cuda/pointer.h>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cuda {
namespace detail {

using allocation_fn = cudaError_t (*)(void**, std::size_t);
using deallocation_fn = cudaError_t (*)(void*);

inline cudaError_t device_allocate(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
inline cudaError_t managed_allocate(void** p, std::size_t bytes) {
  return cudaMallocManaged(p, bytes, cudaMemAttachGlobal);
}
inline cudaError_t pinned_allocate(void** p, std::size_t bytes) { return cudaMallocHost(p, bytes); }
inline cudaError_t device_free(void* p) { return cudaFree(p); }
inline cudaError_t pinned_free(void* p) { return cudaFreeHost(p); }

template <allocation_fn Allocate, deallocation_fn Free, typename Pointer>
class cuda_memory_resource final : public mr::memory_resource<Pointer> {
 public:
  Pointer do_allocate(std::size_t bytes, std::size_t alignment = THRUST_MR_DEFAULT_ALIGNMENT) override {
    (void)alignment;  // CUDA's allocations are aligned to 256 bytes
    void* p = nullptr;
    const cudaError_t status = Allocate(&p, bytes);
    if (status != cudaSuccess) {
      cudaGetLastError();  // as Thrust does: the error is the exception's, not the next call's
      throw thrust::system::detail::bad_alloc(cudaGetErrorString(status));
    }
    return Pointer(p);
  }

  void do_deallocate(Pointer p, std::size_t bytes, std::size_t alignment) override {
    (void)bytes;
    (void)alignment;
    const cudaError_t status = Free(thrust::detail::pointer_traits<Pointer>::get(p));
    if (status != cudaSuccess) throw std::runtime_error(std::string("CUDA free failed: ") + cudaGetErrorString(status));
  }
};

using device_memory_resource = cuda_memory_resource<device_allocate, device_free, thrust::cuda::pointer<void>>;
using managed_memory_resource = cuda_memory_resource<managed_allocate, device_free, thrust::cuda::universal_pointer<void>>;
using pinned_memory_resource = cuda_memory_resource<pinned_allocate, pinned_free, thrust::cuda::universal_pointer<void>>;

}  // namespace detail

using memory_resource = detail::device_memory_resource;
using universal_memory_resource = detail::managed_memory_resource;
using universal_host_pinned_memory_resource = detail::pinned_memory_resource;

}  // namespace cuda
}  // namespace system

namespace cuda {
using thrust::system::cuda::memory_resource;
using thrust::system::cuda::universal_host_pinned_memory_resource;
using thrust::system::cuda::universal_memory_resource;
}  // namespace cuda
THRUST_NAMESPACE_END
