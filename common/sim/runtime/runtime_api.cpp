// The CUDA runtime API over simulated device memory. Launches run to completion when they are
// made, so every call that would wait for the device returns at once, with the error a launch
// left behind (errors.cpp).
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

#include "device_limits.hpp"
#include "global_memory.hpp"
#include "memory.hpp"
#include "report.hpp"
#include "schedule.hpp"
#include "thread.hpp"

namespace scanlab::sim::detail {
namespace {

cudaError_t misuse(const char* call, const std::string& problem, cudaError_t error = cudaErrorInvalidValue) {
  Finding f;
  f.kind = ReportKind::api_misuse;
  f.headline = std::string(call) + ": " + problem;
  f.details.push_back(std::string("the call returns ") + cudaGetErrorName(error));
  report(f);
  return error;
}

bool is_device_address(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  return memory::regions.ready && (memory::in_global(a) || memory::in_shared(a));
}

cudaError_t check_device_range(const char* call, const char* which, const void* p, std::size_t bytes) {
  if (global_memory::range_live(p, bytes)) return cudaSuccess;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (!is_device_address(p))
    return misuse(call, std::string(which) + " is not device memory from cudaMalloc");
  return misuse(call, std::string(which) + " range of " + std::to_string(bytes) + " bytes does not fit in its buffer: " +
                          global_memory::describe_address(a));
}

cudaError_t check_host_pointer(const char* call, const char* which, const void* p) {
  if (!p) return misuse(call, std::string(which) + " is a null pointer");
  if (is_device_address(p)) return misuse(call, std::string(which) + " is device memory, but the copy direction says host");
  return cudaSuccess;
}

struct Event {
  std::chrono::steady_clock::time_point when;
  bool recorded = false;
};

}  // namespace
}  // namespace scanlab::sim::detail

using namespace scanlab::sim::detail;

cudaError_t cudaDeviceSynchronize() { return cudaPeekAtLastError(); }
cudaError_t cudaGetDeviceCount(int* count) {
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidDevice; }

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (device != 0) return cudaErrorInvalidDevice;
  std::memset(prop, 0, sizeof *prop);
  std::strncpy(prop->name, "scanlab CPU simulator", sizeof prop->name - 1);
  prop->totalGlobalMem = memory::kGlobalBytes;
  prop->sharedMemPerBlock = kDefaultSharedBytesPerBlock;
  prop->sharedMemPerBlockOptin = kMaxSharedBytesPerBlock;
  prop->sharedMemPerMultiprocessor = kMaxSharedBytesPerBlock + 1024;
  prop->regsPerBlock = 65536;
  prop->warpSize = kWarpSize;
  prop->maxThreadsPerBlock = kMaxThreadsPerBlock;
  prop->maxThreadsDim[0] = 1024;
  prop->maxThreadsDim[1] = 1024;
  prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 2147483647;
  prop->maxGridSize[1] = 65535;
  prop->maxGridSize[2] = 65535;
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->maxBlocksPerMultiProcessor = 32;
  prop->multiProcessorCount = static_cast<int>(schedule().resident_blocks);
  prop->major = 9;
  prop->minor = 0;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  cudaDeviceProp p;
  if (cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess) return e;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlockOptin); break;
    default: return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

cudaError_t cudaMalloc(void** ptr, std::size_t bytes, const char* file, unsigned line) {
  if (!ptr) return misuse("cudaMalloc", "the output pointer is null");
  *ptr = global_memory::allocate(bytes, Site{file, line}, global_memory::Contents::unwritten);
  return *ptr ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t cudaFree(void* ptr) {
  if (!ptr) return cudaSuccess;
  using global_memory::FreeResult;
  switch (global_memory::deallocate(ptr)) {
    case FreeResult::freed: return cudaSuccess;
    case FreeResult::not_device: return misuse("cudaFree", "the pointer is not device memory from cudaMalloc");
    case FreeResult::not_an_allocation:
      return misuse("cudaFree", "the pointer is not the start of a cudaMalloc buffer");
    case FreeResult::double_free: return misuse("cudaFree", "the buffer was already freed");
  }
  return cudaErrorInvalidValue;
}

cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) {
  *ptr = std::aligned_alloc(256, (bytes + 255) / 256 * 256 + 256);
  return *ptr ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t cudaFreeHost(void* ptr) {
  std::free(ptr);
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (bytes == 0) return cudaSuccess;
  if (current_thread) return misuse("cudaMemcpy", "called from a kernel", cudaErrorNotSupported);
  if (kind == cudaMemcpyDefault)
    kind = is_device_address(dst) ? (is_device_address(src) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                                  : (is_device_address(src) ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
  cudaError_t e = cudaSuccess;
  switch (kind) {
    case cudaMemcpyHostToDevice:
      if ((e = check_device_range("cudaMemcpy", "the destination", dst, bytes)) == cudaSuccess)
        e = check_host_pointer("cudaMemcpy", "the source", src);
      break;
    case cudaMemcpyDeviceToHost:
      if ((e = check_device_range("cudaMemcpy", "the source", src, bytes)) == cudaSuccess)
        e = check_host_pointer("cudaMemcpy", "the destination", dst);
      break;
    case cudaMemcpyDeviceToDevice:
      if ((e = check_device_range("cudaMemcpy", "the source", src, bytes)) == cudaSuccess)
        e = check_device_range("cudaMemcpy", "the destination", dst, bytes);
      break;
    case cudaMemcpyHostToHost:
      if ((e = check_host_pointer("cudaMemcpy", "the source", src)) == cudaSuccess)
        e = check_host_pointer("cudaMemcpy", "the destination", dst);
      break;
    default: return misuse("cudaMemcpy", "unknown copy direction", cudaErrorInvalidMemcpyDirection);
  }
  if (e != cudaSuccess) return e;
  std::memmove(dst, src, bytes);
  if (kind == cudaMemcpyHostToDevice) memory::mark_written(dst, bytes);
  if (kind == cudaMemcpyDeviceToDevice) memory::copy_written_state(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes) {
  if (bytes == 0) return cudaSuccess;
  if (cudaError_t e = check_device_range("cudaMemset", "the destination", ptr, bytes); e != cudaSuccess) return e;
  std::memset(ptr, value, bytes);
  memory::mark_written(ptr, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t) {
  return cudaMemset(ptr, value, bytes);
}

cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  *total_bytes = memory::kGlobalBytes;
  *free_bytes = memory::kGlobalBytes - global_memory::bytes_in_use();
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  *stream = nullptr;
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned) { return cudaStreamCreate(stream); }
cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaPeekAtLastError(); }

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  *event = reinterpret_cast<cudaEvent_t>(new Event());
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned) { return cudaEventCreate(event); }
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete reinterpret_cast<Event*>(event);
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (!event) return cudaErrorInvalidResourceHandle;
  auto* e = reinterpret_cast<Event*>(event);
  e->when = std::chrono::steady_clock::now();
  e->recorded = true;
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) { return event ? cudaSuccess : cudaErrorInvalidResourceHandle; }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  auto* a = reinterpret_cast<Event*>(start);
  auto* b = reinterpret_cast<Event*>(end);
  if (!a || !b) return cudaErrorInvalidResourceHandle;
  if (!a->recorded || !b->recorded) return cudaErrorInvalidResourceHandle;
  *ms = std::chrono::duration<float, std::milli>(b->when - a->when).count();
  return cudaSuccess;
}
