// Device, managed, pinned and mapped host memory: allocation, copies, fills, advice and pointer
// attributes, with the flags and types of those calls.
#pragma once

#include <cstddef>

#include <scanlab/sim/cuda/call_site.hpp>
#include <scanlab/sim/cuda/errors.hpp>
#include <scanlab/sim/cuda/streams.hpp>

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6,
};

// Where managed memory should live (CUDA 12.2's _v2 calls, the only form since CUDA 13).
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4,
};
struct cudaMemLocation {
  cudaMemLocationType type;
  int id;
};

enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3,
};
struct cudaPointerAttributes {
  cudaMemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
};

#define cudaCpuDeviceId (-1)
#define cudaInvalidDeviceId (-2)
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02

cudaError_t cudaMalloc(void** ptr, std::size_t bytes, SCANLAB_SIM_SITE_PARAMS);
template <class T>
cudaError_t cudaMalloc(T** ptr, std::size_t bytes, SCANLAB_SIM_SITE_PARAMS) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), bytes, scanlab_file, scanlab_line);
}
cudaError_t cudaFree(void* ptr);
// Managed memory: a cudaMalloc buffer that host code may also use, once it has synchronized
// with the kernels launched before (runtime/memory/managed_memory.hpp).
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags = cudaMemAttachGlobal,
                              SCANLAB_SIM_SITE_PARAMS);
template <class T>
cudaError_t cudaMallocManaged(T** ptr, std::size_t bytes, unsigned flags = cudaMemAttachGlobal,
                              SCANLAB_SIM_SITE_PARAMS) {
  return cudaMallocManaged(reinterpret_cast<void**>(ptr), bytes, flags, scanlab_file, scanlab_line);
}
cudaError_t cudaMemPrefetchAsync(const void* ptr, std::size_t bytes, int device, cudaStream_t stream = nullptr);
cudaError_t cudaMemAdvise(const void* ptr, std::size_t bytes, cudaMemoryAdvise advice, int device);
// The location forms: a device location names its device, a host location the CPU.
inline int scanlab_sim_device_of(cudaMemLocation location) {
  return location.type == cudaMemLocationTypeDevice ? location.id : cudaCpuDeviceId;
}
inline cudaError_t cudaMemPrefetchAsync(const void* ptr, std::size_t bytes, cudaMemLocation location, unsigned,
                                        cudaStream_t stream = nullptr) {
  return cudaMemPrefetchAsync(ptr, bytes, scanlab_sim_device_of(location), stream);
}
inline cudaError_t cudaMemAdvise(const void* ptr, std::size_t bytes, cudaMemoryAdvise advice, cudaMemLocation location) {
  return cudaMemAdvise(ptr, bytes, advice, scanlab_sim_device_of(location));
}
inline cudaError_t cudaMemPrefetchAsync_v2(const void* ptr, std::size_t bytes, cudaMemLocation location, unsigned flags,
                                           cudaStream_t stream = nullptr) {
  return cudaMemPrefetchAsync(ptr, bytes, location, flags, stream);
}
inline cudaError_t cudaMemAdvise_v2(const void* ptr, std::size_t bytes, cudaMemoryAdvise advice, cudaMemLocation location) {
  return cudaMemAdvise(ptr, bytes, advice, location);
}
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* ptr, std::size_t bytes = 0,
                                     unsigned flags = cudaMemAttachSingle);
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr);

// Pinned host memory is ordinary host memory here; mapped host memory is its own device pointer.
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes);
template <class T>
cudaError_t cudaMallocHost(T** ptr, std::size_t bytes) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), bytes);
}
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned flags);
template <class T>
cudaError_t cudaHostAlloc(T** ptr, std::size_t bytes, unsigned flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(ptr), bytes, flags);
}
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaHostRegister(void* ptr, std::size_t bytes, unsigned flags);
cudaError_t cudaHostUnregister(void* ptr);
cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned flags);
template <class T>
cudaError_t cudaHostGetDevicePointer(T** device_ptr, void* host_ptr, unsigned flags) {
  return cudaHostGetDevicePointer(reinterpret_cast<void**>(device_ptr), host_ptr, flags);
}
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes);
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream = nullptr);
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes);
