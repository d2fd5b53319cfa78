// The CUDA C++ surface of the CPU simulator: what a .cu file may use, compiled by a host
// compiler. Kernels run as fibers (see runtime/), one per CUDA thread.
//
// Lab code never includes this file itself: the rewriter (tools/cu_rewrite.py) puts it at the
// top of every .cu, and <cuda_runtime.h> on the simulator's include path points here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

#include <scanlab/sim/diagnostics.hpp>
#include <scanlab/sim/vector_types.hpp>

#define SCANLAB_SIM_SITE_PARAMS const char *scanlab_file = __builtin_FILE(), unsigned scanlab_line = __builtin_LINE()

// ---- Qualifiers: device code is host code here --------------------------------------------
#define __global__
#define __device__
#define __host__
#define __constant__
// Managed variables are gathered in one section, so that host accesses to them can be told from
// others (runtime/managed_memory.hpp).
#define __managed__ __attribute__((section("scanlab_managed"), used))
#define __forceinline__ inline __attribute__((always_inline))
#define __restrict__ __restrict
#define __align__(n) alignas(n)
#define __launch_bounds__(...)
#define __grid_constant__
#define __CUDA_ALIGN__(n) alignas(n)

// What CUDA's own headers define, and programs test: the runtime's version (12.4, the
// interface this file follows) and the include guards of the runtime headers (the CUDA
// samples' helper_cuda.h defines checkCudaErrors only when __DRIVER_TYPES_H__ is defined).
#define CUDART_VERSION 12040
#define __CUDART_API_VERSION 12040
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __HOST_DEFINES_H__
#define __DEVICE_TYPES_H__
#define __VECTOR_TYPES_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
// Thrust's device algorithms run on the host, in its C++ device system: device_vector's storage
// is host memory, which kernels reach through raw_pointer_cast without the simulator's checks.
#ifndef THRUST_DEVICE_SYSTEM
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#endif
#define CUDART_INF_F __builtin_huge_valf()
#define CUDART_INF __builtin_huge_val()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_NAN __builtin_nan("")
// __shared__ is rewritten by tools/cu_rewrite.py into per-block storage before compilation.

// ---- Error codes and runtime types ----------------------------------------------------------
enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorLaunchFailure = 719,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchTimeout = 702,
  cudaErrorHostMemoryAlreadyRegistered = 712,
  cudaErrorHostMemoryNotRegistered = 713,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999,
};
using cudaError = cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};

// The attributes the simulator answers (runtime_api.cpp), with CUDA's numbers.
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrGpuOverlap = 15,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrKernelExecTimeout = 17,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrCanMapHostMemory = 19,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrEccEnabled = 32,
  cudaDevAttrPciBusId = 33,
  cudaDevAttrPciDeviceId = 34,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrPciDomainId = 50,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrIsMultiGpuBoard = 84,
  cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrCooperativeMultiDeviceLaunch = 96,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
};

enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3,
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
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02

struct CUstream_st;
using cudaStream_t = CUstream_st*;
struct CUevent_st;
using cudaEvent_t = CUevent_st*;

struct cudaDeviceProp {
  char name[256];
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  std::size_t sharedMemPerBlockOptin;
  std::size_t sharedMemPerMultiprocessor;
  std::size_t totalConstMem;
  std::size_t memPitch;
  std::size_t textureAlignment;
  int regsPerBlock;
  int regsPerMultiprocessor;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int maxThreadsPerMultiProcessor;
  int maxBlocksPerMultiProcessor;
  int multiProcessorCount;
  int clockRate;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int major;
  int minor;
  int computeMode;
  int integrated;
  int canMapHostMemory;
  int concurrentKernels;
  int deviceOverlap;
  int asyncEngineCount;
  int unifiedAddressing;
  int managedMemory;
  int concurrentManagedAccess;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  int kernelExecTimeoutEnabled;
  int ECCEnabled;
  int isMultiGpuBoard;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
};

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
// The default stream's other names: both wait for the work of every stream here.
#define cudaStreamLegacy (reinterpret_cast<cudaStream_t>(0x1))
#define cudaStreamPerThread (reinterpret_cast<cudaStream_t>(0x2))
using cudaHostFn_t = void (*)(void* user_data);
using cudaStreamCallback_t = void (*)(cudaStream_t stream, cudaError_t status, void* user_data);

// ---- Runtime API (runtime/runtime_api.cpp; errors in runtime/errors.cpp) ------------------------
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaSetDeviceFlags(unsigned flags);
cudaError_t cudaGetDeviceFlags(unsigned* flags);
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop);
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest);

cudaError_t cudaMalloc(void** ptr, std::size_t bytes, SCANLAB_SIM_SITE_PARAMS);
template <class T>
cudaError_t cudaMalloc(T** ptr, std::size_t bytes, SCANLAB_SIM_SITE_PARAMS) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), bytes, scanlab_file, scanlab_line);
}
cudaError_t cudaFree(void* ptr);
// Managed memory: a cudaMalloc buffer that host code may also use, once it has synchronized
// with the kernels launched before (runtime/managed_memory.hpp).
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

// __constant__ and __device__ variables are ordinary variables here (kernels read them
// unchecked): the symbol calls copy to and from them, bounds checked.
namespace scanlab::sim::detail {
cudaError_t copy_symbol(const char* call, void* dst, const void* src, std::size_t bytes, std::size_t offset,
                        std::size_t symbol_bytes, const char* file, unsigned line);
}
template <class T>
cudaError_t cudaMemcpyToSymbol(T& symbol, const void* src, std::size_t bytes, std::size_t offset = 0,
                               cudaMemcpyKind = cudaMemcpyHostToDevice, SCANLAB_SIM_SITE_PARAMS) {
  return scanlab::sim::detail::copy_symbol("cudaMemcpyToSymbol", reinterpret_cast<char*>(&symbol) + offset, src,
                                           bytes, offset, sizeof(T), scanlab_file, scanlab_line);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                 cudaMemcpyKind = cudaMemcpyDeviceToHost, SCANLAB_SIM_SITE_PARAMS) {
  return scanlab::sim::detail::copy_symbol("cudaMemcpyFromSymbol", dst,
                                           reinterpret_cast<const char*>(&symbol) + offset, bytes, offset, sizeof(T),
                                           scanlab_file, scanlab_line);
}
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(T& symbol, const void* src, std::size_t bytes, std::size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = nullptr,
                                    SCANLAB_SIM_SITE_PARAMS) {
  return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind, scanlab_file, scanlab_line);
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t = nullptr,
                                      SCANLAB_SIM_SITE_PARAMS) {
  return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind, scanlab_file, scanlab_line);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void** address, const T& symbol) {
  *address = const_cast<void*>(static_cast<const void*>(&symbol));
  return cudaSuccess;
}
template <class T>
cudaError_t cudaGetSymbolSize(std::size_t* bytes, const T&) {
  *bytes = sizeof(T);
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned flags, int priority);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags = 0);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* user_data, unsigned flags);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaThreadSynchronize();  // the name before CUDA 4

namespace scanlab::sim::detail {
cudaError_t set_max_dynamic_shared_memory(int bytes);
}
// The simulator keeps one dynamic shared memory limit for all kernels (the largest asked for).
template <class F>
cudaError_t cudaFuncSetAttribute(F*, cudaFuncAttribute attr, int value) {
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize)
    return scanlab::sim::detail::set_max_dynamic_shared_memory(value);
  return cudaSuccess;
}
namespace scanlab::sim::detail {
// Blocks one multiprocessor of the simulated device holds at once (its threads, block slots and
// shared memory; registers not counted).
int occupancy_blocks_per_multiprocessor(int block_size, std::size_t dynamic_shared_bytes);
}
template <class F>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, F*, int block_size, std::size_t dynamic_shared_bytes) {
  *blocks = scanlab::sim::detail::occupancy_blocks_per_multiprocessor(block_size, dynamic_shared_bytes);
  return cudaSuccess;
}
// The largest block (or the limit given), and enough blocks of it to fill every multiprocessor.
template <class F>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, F kernel,
                                               std::size_t dynamic_shared_bytes = 0, int block_size_limit = 0) {
  *block_size = block_size_limit > 0 && block_size_limit < 1024 ? block_size_limit : 1024;
  int per_multiprocessor = 0, multiprocessors = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, kernel, *block_size, dynamic_shared_bytes);
  cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0);
  *min_grid_size = per_multiprocessor * multiprocessors;
  return cudaSuccess;
}

// ---- Built-in variables ---------------------------------------------------------------------
namespace scanlab::sim::detail {
struct Coordinates {
  uint3 thread_idx;
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
};
// The coordinates of the CUDA thread running on this OS thread; null in host code. __thread
// rather than thread_local: a thread_local declared extern is reached through a check for a
// dynamic initializer at every use, and threadIdx is read all the time.
extern __thread const Coordinates* current_coordinates __attribute__((tls_model("initial-exec")));
const Coordinates& coordinates_or_die(const char* name, const char* file, unsigned line);
inline const Coordinates& coords(const char* name, const char* file = __builtin_FILE(),
                                 unsigned line = __builtin_LINE()) {
  const Coordinates* c = current_coordinates;
  return c ? *c : coordinates_or_die(name, file, line);
}
}  // namespace scanlab::sim::detail

#define threadIdx (::scanlab::sim::detail::coords("threadIdx").thread_idx)
#define blockIdx (::scanlab::sim::detail::coords("blockIdx").block_idx)
#define blockDim (::scanlab::sim::detail::coords("blockDim").block_dim)
#define gridDim (::scanlab::sim::detail::coords("gridDim").grid_dim)
inline constexpr int warpSize = 32;

// ---- Barriers (runtime/barrier.cpp) ---------------------------------------------------------
// Call sites travel explicitly: an optimizer may merge two textually different calls.
void __syncthreads(SCANLAB_SIM_SITE_PARAMS);
int __syncthreads_count(int predicate, SCANLAB_SIM_SITE_PARAMS);
int __syncthreads_and(int predicate, SCANLAB_SIM_SITE_PARAMS);
int __syncthreads_or(int predicate, SCANLAB_SIM_SITE_PARAMS);
void __syncwarp(unsigned mask = 0xffffffffu, SCANLAB_SIM_SITE_PARAMS);

// ---- Memory fences (runtime/atomics.cpp) ----------------------------------------------------
void __threadfence(SCANLAB_SIM_SITE_PARAMS);
void __threadfence_block(SCANLAB_SIM_SITE_PARAMS);
void __threadfence_system(SCANLAB_SIM_SITE_PARAMS);
void __nanosleep(unsigned ns);

// ---- Warp intrinsics (runtime/warp.cpp) -----------------------------------------------------
unsigned __ballot_sync(unsigned mask, int predicate, SCANLAB_SIM_SITE_PARAMS);
int __any_sync(unsigned mask, int predicate, SCANLAB_SIM_SITE_PARAMS);
int __all_sync(unsigned mask, int predicate, SCANLAB_SIM_SITE_PARAMS);
unsigned __activemask();
unsigned __match_any_sync(unsigned mask, unsigned long long value, SCANLAB_SIM_SITE_PARAMS);
unsigned __match_all_sync(unsigned mask, unsigned long long value, int* predicate, SCANLAB_SIM_SITE_PARAMS);
// Floating-point values match by their bits, as on a GPU.
inline unsigned __match_any_sync(unsigned mask, float value, SCANLAB_SIM_SITE_PARAMS) {
  return __match_any_sync(mask, static_cast<unsigned long long>(__builtin_bit_cast(unsigned, value)), scanlab_file, scanlab_line);
}
inline unsigned __match_any_sync(unsigned mask, double value, SCANLAB_SIM_SITE_PARAMS) {
  return __match_any_sync(mask, __builtin_bit_cast(unsigned long long, value), scanlab_file, scanlab_line);
}

namespace scanlab::sim::detail {
enum class ShuffleKind { index, up, down, bitwise_xor };
std::uint64_t warp_shuffle(ShuffleKind kind, unsigned mask, std::uint64_t value, int lane_or_delta, int width,
                           const char* file, unsigned line);
template <class T>
T shuffle(ShuffleKind kind, unsigned mask, T value, int lane_or_delta, int width, const char* file, unsigned line) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8, "warp shuffles move values of at most 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  bits = warp_shuffle(kind, mask, bits, lane_or_delta, width, file, line);
  T result;
  std::memcpy(&result, &bits, sizeof(T));
  return result;
}
}  // namespace scanlab::sim::detail

template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize, SCANLAB_SIM_SITE_PARAMS) {
  using namespace scanlab::sim::detail;
  return shuffle(ShuffleKind::index, mask, var, src_lane, width, scanlab_file, scanlab_line);
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize, SCANLAB_SIM_SITE_PARAMS) {
  using namespace scanlab::sim::detail;
  return shuffle(ShuffleKind::up, mask, var, static_cast<int>(delta), width, scanlab_file, scanlab_line);
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize, SCANLAB_SIM_SITE_PARAMS) {
  using namespace scanlab::sim::detail;
  return shuffle(ShuffleKind::down, mask, var, static_cast<int>(delta), width, scanlab_file, scanlab_line);
}
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize, SCANLAB_SIM_SITE_PARAMS) {
  using namespace scanlab::sim::detail;
  return shuffle(ShuffleKind::bitwise_xor, mask, var, lane_mask, width, scanlab_file, scanlab_line);
}

// The mask-less forms were removed in CUDA 9 (Volta's independent thread scheduling): they
// assumed lockstep warps. Reject them where they are used, with the replacement named.
namespace scanlab::sim::detail {
template <class... A>
constexpr bool always_false = false;
}
template <class... A>
unsigned __ballot(A...) {
  static_assert(scanlab::sim::detail::always_false<A...>, "__ballot(pred) was removed in CUDA 9: use __ballot_sync(mask, pred)");
  return 0;
}
template <class... A>
int __any(A...) {
  static_assert(scanlab::sim::detail::always_false<A...>, "__any(pred) was removed in CUDA 9: use __any_sync(mask, pred)");
  return 0;
}
template <class... A>
int __all(A...) {
  static_assert(scanlab::sim::detail::always_false<A...>, "__all(pred) was removed in CUDA 9: use __all_sync(mask, pred)");
  return 0;
}
template <class T, class... A>
T __shfl(T, A...) {
  static_assert(scanlab::sim::detail::always_false<T, A...>, "__shfl was removed in CUDA 9: use __shfl_sync(mask, ...)");
  return T{};
}
template <class T, class... A>
T __shfl_up(T, A...) {
  static_assert(scanlab::sim::detail::always_false<T, A...>, "__shfl_up was removed in CUDA 9: use __shfl_up_sync(mask, ...)");
  return T{};
}
template <class T, class... A>
T __shfl_down(T, A...) {
  static_assert(scanlab::sim::detail::always_false<T, A...>, "__shfl_down was removed in CUDA 9: use __shfl_down_sync(mask, ...)");
  return T{};
}
template <class T, class... A>
T __shfl_xor(T, A...) {
  static_assert(scanlab::sim::detail::always_false<T, A...>, "__shfl_xor was removed in CUDA 9: use __shfl_xor_sync(mask, ...)");
  return T{};
}

// ---- Bit intrinsics -------------------------------------------------------------------------
namespace scanlab::sim::detail {
namespace counters {
extern bool enabled;  // scanlab/sim/counters.hpp: counting is on
}
enum class CountedIntrinsic { ballot, popc, clz, shuffle };
void count_intrinsic(CountedIntrinsic which);  // runtime/counters.cpp
}  // namespace scanlab::sim::detail

inline int __popc(unsigned x) {
  if (scanlab::sim::detail::counters::enabled) {
    scanlab::sim::detail::count_intrinsic(scanlab::sim::detail::CountedIntrinsic::popc);
  }
  return __builtin_popcount(x);
}
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) {
  if (scanlab::sim::detail::counters::enabled) {
    scanlab::sim::detail::count_intrinsic(scanlab::sim::detail::CountedIntrinsic::clz);
  }
  return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x));
}
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  return (x >> 16) | (x << 16);
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) |
         __brev(static_cast<unsigned>(x >> 32));
}
template <class T>
T __ldg(const T* p) { return *p; }
// Loads and stores with a cache hint: plain (weak) accesses in the memory model, whatever cache
// level they go through, so a hand-off through them needs fences like any other.
template <class T>
T __ldcg(const T* p) { return *p; }
template <class T>
T __ldca(const T* p) { return *p; }
template <class T>
T __ldcs(const T* p) { return *p; }
template <class T>
T __ldlu(const T* p) { return *p; }
template <class T>
T __ldcv(const T* p) { return *p; }
template <class T>
void __stcg(T* p, T value) { *p = value; }
template <class T>
void __stcs(T* p, T value) { *p = value; }
template <class T>
void __stwb(T* p, T value) { *p = value; }
template <class T>
void __stwt(T* p, T value) { *p = value; }

// ---- Reinterpretation intrinsics: the same bits as another type (the CAS loops of atomics on
// floats use them) ----------------------------------------------------------------------------
#define SCANLAB_SIM_REINTERPRET(NAME, FROM, TO)                    \
  inline TO NAME(FROM x) {                                         \
    static_assert(sizeof(FROM) == sizeof(TO), "same size");        \
    TO y;                                                          \
    std::memcpy(&y, &x, sizeof y);                                 \
    return y;                                                      \
  }
SCANLAB_SIM_REINTERPRET(__float_as_int, float, int)
SCANLAB_SIM_REINTERPRET(__int_as_float, int, float)
SCANLAB_SIM_REINTERPRET(__float_as_uint, float, unsigned)
SCANLAB_SIM_REINTERPRET(__uint_as_float, unsigned, float)
SCANLAB_SIM_REINTERPRET(__double_as_longlong, double, long long)
SCANLAB_SIM_REINTERPRET(__longlong_as_double, long long, double)
#undef SCANLAB_SIM_REINTERPRET

// Device-side min/max, as CUDA's math headers declare them: overloads by value, so they win over
// std::min/std::max in code that says `using namespace std;`. Each is a template with nothing to
// deduce, so that a program's own host version of the same signature is another overload, one
// that wins, not a redefinition: NVIDIA's helper_math.h defines `int max(int, int)` and
// `int min(int, int)` where __CUDACC__ is not defined, as it is not here (defining it would
// switch Thrust to its CUDA back end).
#define SCANLAB_SIM_MIN_MAX(A, B, R)                                                                          \
  template <class = void>                                                                                     \
  inline R min(A a, B b) { return static_cast<R>(b) < static_cast<R>(a) ? static_cast<R>(b) : static_cast<R>(a); } \
  template <class = void>                                                                                     \
  inline R max(A a, B b) { return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(b) : static_cast<R>(a); }
SCANLAB_SIM_MIN_MAX(int, int, int)
SCANLAB_SIM_MIN_MAX(unsigned, unsigned, unsigned)
SCANLAB_SIM_MIN_MAX(int, unsigned, unsigned)
SCANLAB_SIM_MIN_MAX(unsigned, int, unsigned)
SCANLAB_SIM_MIN_MAX(long, long, long)
SCANLAB_SIM_MIN_MAX(unsigned long, unsigned long, unsigned long)
SCANLAB_SIM_MIN_MAX(long long, long long, long long)
SCANLAB_SIM_MIN_MAX(unsigned long long, unsigned long long, unsigned long long)
SCANLAB_SIM_MIN_MAX(float, float, float)
SCANLAB_SIM_MIN_MAX(double, double, double)
SCANLAB_SIM_MIN_MAX(float, double, double)
SCANLAB_SIM_MIN_MAX(double, float, double)
#undef SCANLAB_SIM_MIN_MAX

// ---- Atomics (runtime/atomics.cpp) ----------------------------------------------------------
// Out of line on purpose: the simulator's own code is not instrumented, and the return address
// names the student's line in reports.
// Each of device scope (atomicAdd), block scope (atomicAdd_block) and system scope (atomicAdd_system).
#define SCANLAB_SIM_DECLARE_ATOMIC(name, T) T name(T* address, T value);
#define SCANLAB_SIM_DECLARE_INTEGER_ATOMICS(T, S) \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicAdd##S, T)     \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicSub##S, T)     \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicExch##S, T)    \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicMax##S, T)     \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicMin##S, T)     \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicAnd##S, T)     \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicOr##S, T)      \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicXor##S, T)     \
  T atomicCAS##S(T* address, T compare, T value);
#define SCANLAB_SIM_DECLARE_ATOMICS_OF_SCOPE(S)                             \
  SCANLAB_SIM_DECLARE_INTEGER_ATOMICS(int, S)                              \
  SCANLAB_SIM_DECLARE_INTEGER_ATOMICS(unsigned int, S)                     \
  SCANLAB_SIM_DECLARE_INTEGER_ATOMICS(unsigned long long int, S)           \
  SCANLAB_SIM_DECLARE_INTEGER_ATOMICS(long long int, S)                    \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicAdd##S, float)                          \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicAdd##S, double)                         \
  SCANLAB_SIM_DECLARE_ATOMIC(atomicExch##S, float)                         \
  unsigned int atomicInc##S(unsigned int* address, unsigned int limit);    \
  unsigned int atomicDec##S(unsigned int* address, unsigned int limit);
SCANLAB_SIM_DECLARE_ATOMICS_OF_SCOPE()
SCANLAB_SIM_DECLARE_ATOMICS_OF_SCOPE(_block)
SCANLAB_SIM_DECLARE_ATOMICS_OF_SCOPE(_system)
#undef SCANLAB_SIM_DECLARE_ATOMICS_OF_SCOPE
#undef SCANLAB_SIM_DECLARE_INTEGER_ATOMICS
#undef SCANLAB_SIM_DECLARE_ATOMIC

#include <scanlab/sim/device_functions.hpp>
#include <scanlab/sim/warp_reduce.hpp>
#include <scanlab/sim/launch.hpp>
#include <scanlab/sim/shared_memory.hpp>
