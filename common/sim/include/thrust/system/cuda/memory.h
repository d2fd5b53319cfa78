// Thrust's CUDA memory functions for programs built for the scanlab CPU simulator (see
// execution_policy.h beside this file): thrust::cuda::malloc and free are cudaMalloc and cudaFree,
// and thrust::cuda::pointer is a pointer of the device system, which the simulator's Thrust
// algorithms run in. Stands in for Thrust's header of the same name (CUDA back end, nvcc only).
#pragma once

#include <cstddef>
#include <thrust/system/cpp/memory.h>

#include "scanlab/sim/cuda.hpp"
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system/cuda/pointer.h>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cuda {

inline pointer<void> malloc(std::size_t bytes) {
  void* p = nullptr;
  cudaMalloc(&p, bytes);
  return pointer<void>(p);
}

template <typename T>
pointer<T> malloc(std::size_t n) {
  T* p = nullptr;
  cudaMalloc(&p, n * sizeof(T));
  return pointer<T>(p);
}

template <typename T>
void free(pointer<T> p) {
  cudaFree(p.get());
}

}  // namespace cuda
}  // namespace system

namespace cuda {
using thrust::system::cuda::free;
using thrust::system::cuda::malloc;
}  // namespace cuda
THRUST_NAMESPACE_END
