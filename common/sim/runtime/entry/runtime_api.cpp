// The CUDA runtime API over simulated device memory. Launches run to completion when they are
// made, so every call that would wait for the device returns at once, with the error a launch
// left behind (errors.cpp).
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>

#include "base/device_limits.hpp"
#include "base/settings.hpp"
#include "findings/call_chain.hpp"
#include "findings/errors.hpp"
#include "findings/report.hpp"
#include "memory/global_memory.hpp"
#include "memory/managed_memory.hpp"
#include "memory/memory.hpp"
#include "threads/fault_handler.hpp"
#include "threads/thread.hpp"
#include "scanlab/sim/device_allocations.hpp"

namespace scanlab::sim::detail {
namespace {

cudaError_t misuse(const char* call, const std::string& problem, cudaError_t error = cudaErrorInvalidValue) {
  Finding f;
  f.kind = ReportKind::api_misuse;
  f.headline = std::string(call) + ": " + problem;
  // The program's line that made the call (the runtime's own frames are left out).
  const SourceLocation where = call_chain::read().program_line;
  if (!where.file.empty()) f.parties.push_back(host_party("call", where));
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
  cudaStream_t stream = nullptr;
  std::uint64_t launches = 0;  // launches made before it was recorded
};

// Pinned host memory: cudaMallocHost's and cudaHostAlloc's blocks, and registered ranges.
std::mutex pinned_mutex;
std::set<void*> pinned_blocks;
std::set<void*> registered;

// A device from the simulator's point of view: the one it simulates, or a misuse.
bool valid_device(int device) { return device == 0; }

}  // namespace

cudaError_t copy_symbol(const char* call, void* dst, const void* src, std::size_t bytes, std::size_t offset,
                        std::size_t symbol_bytes, const char* file, unsigned line) {
  if (offset > symbol_bytes || bytes > symbol_bytes - offset) {
    Finding f;
    f.kind = ReportKind::api_misuse;
    f.headline = std::string(call) + ": " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                 " do not fit in the " + std::to_string(symbol_bytes) + "-byte variable";
    f.parties.push_back(host_party("call", locate(Site{file, line})));
    f.details.push_back("the call returns cudaErrorInvalidValue");
    report(f);
    return cudaErrorInvalidValue;
  }
  if (cudaError_t e = sticky_error()) return e;
  if (bytes) std::memmove(dst, src, bytes);
  return cudaSuccess;
}

}  // namespace scanlab::sim::detail

using namespace scanlab::sim::detail;

// Kernels have run by the time they are launched; what the calls that wait for them still do is
// tell managed memory that the host may use it again. After an error that sticks (findings/errors.hpp)
// every call that uses the device returns it, as on a GPU, and does nothing else.
cudaError_t cudaDeviceSynchronize() {
  managed_memory::synchronized_all();
  return cudaPeekAtLastError();
}
cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }
cudaError_t cudaGetDeviceCount(int* count) {
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { return valid_device(device) ? cudaSuccess : cudaErrorInvalidDevice; }
cudaError_t cudaSetDeviceFlags(unsigned) { return cudaSuccess; }
cudaError_t cudaGetDeviceFlags(unsigned* flags) {
  *flags = cudaDeviceMapHost;
  return cudaSuccess;
}
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp*) {
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* version) {
  *version = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) {
  *version = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = 0;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (device != 0) return cudaErrorInvalidDevice;
  std::memset(prop, 0, sizeof *prop);
  std::strncpy(prop->name, "scanlab CPU simulator", sizeof prop->name - 1);
  prop->totalGlobalMem = memory::kGlobalBytes;
  prop->sharedMemPerBlock = kDefaultSharedBytesPerBlock;
  prop->sharedMemPerBlockOptin = kMaxSharedBytesPerBlock;
  prop->sharedMemPerMultiprocessor = kSharedBytesPerMultiprocessor;
  prop->regsPerBlock = 65536;
  prop->warpSize = kWarpSize;
  prop->maxThreadsPerBlock = kMaxThreadsPerBlock;
  prop->maxThreadsDim[0] = 1024;
  prop->maxThreadsDim[1] = 1024;
  prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 2147483647;
  prop->maxGridSize[1] = 65535;
  prop->maxGridSize[2] = 65535;
  prop->maxThreadsPerMultiProcessor = kMaxThreadsPerMultiprocessor;
  prop->maxBlocksPerMultiProcessor = kMaxBlocksPerMultiprocessor;
  // As many as blocks run at once, so that a grid sized by it (a persistent kernel) runs all at once.
  prop->multiProcessorCount = static_cast<int>(resident_slots(schedule()));
  prop->cooperativeLaunch = 1;  // cudaLaunchCooperativeKernel, grid_group::sync
  prop->major = 9;
  prop->minor = 0;
  // An H100's clocks and caches, for programs that print or compute with them; the simulator's
  // own capabilities for what changes behaviour: host access to
  // managed memory only after synchronization (as on a device without concurrent managed access).
  prop->clockRate = 1980000;  // kHz
  prop->memoryClockRate = 2619000;
  prop->memoryBusWidth = 5120;
  prop->l2CacheSize = 50 * 1024 * 1024;
  prop->totalConstMem = 64 * 1024;
  prop->memPitch = 2147483647;
  prop->textureAlignment = 512;
  prop->regsPerMultiprocessor = 65536;
  prop->computeMode = cudaComputeModeDefault;
  prop->canMapHostMemory = 1;
  prop->concurrentKernels = 1;
  prop->deviceOverlap = 1;
  prop->asyncEngineCount = 2;
  prop->unifiedAddressing = 1;
  prop->managedMemory = 1;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  cudaDeviceProp p;
  if (cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess) return e;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
    case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;
    case cudaDevAttrGpuOverlap: *value = p.deviceOverlap; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrKernelExecTimeout: *value = p.kernelExecTimeoutEnabled; break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrComputeMode: *value = p.computeMode; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrEccEnabled: *value = p.ECCEnabled; break;
    case cudaDevAttrPciBusId: *value = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: *value = p.pciDeviceID; break;
    case cudaDevAttrPciDomainId: *value = p.pciDomainID; break;
    case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrIsMultiGpuBoard: *value = p.isMultiGpuBoard; break;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; break;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case cudaDevAttrCooperativeMultiDeviceLaunch: *value = p.cooperativeMultiDeviceLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    default: return misuse("cudaDeviceGetAttribute", "attribute " + std::to_string(static_cast<int>(attr)) +
                                                         " is not one the simulator knows");
  }
  return cudaSuccess;
}

namespace {
// The tallies behind scanlab::sim::device_allocations(); relaxed: they are read between calls.
std::atomic<unsigned long long> allocations{0}, allocated_bytes{0}, frees{0};

void count_allocation(const void* p, std::size_t bytes) {
  if (!p) return;
  allocations.fetch_add(1, std::memory_order_relaxed);
  allocated_bytes.fetch_add(bytes, std::memory_order_relaxed);
}
}  // namespace

cudaError_t cudaMalloc(void** ptr, std::size_t bytes, const char* file, unsigned line) {
  // Host code that faults before the first launch is reported too (a launch installs it anyway).
  scanlab::sim::detail::fault_handler::install();
  if (!ptr) return misuse("cudaMalloc", "the output pointer is null");
  if (cudaError_t e = sticky_error()) return e;
  *ptr = global_memory::allocate(bytes, Site{file, line}, global_memory::Contents::unwritten);
  count_allocation(*ptr, bytes);
  return *ptr ? cudaSuccess : cudaErrorMemoryAllocation;
}

cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags, const char* file, unsigned line) {
  if (!ptr) return misuse("cudaMallocManaged", "the output pointer is null");
  if (cudaError_t e = sticky_error()) return e;
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
    return misuse("cudaMallocManaged", "flags must be cudaMemAttachGlobal or cudaMemAttachHost");
  *ptr = global_memory::allocate(bytes, Site{file, line});
  if (!*ptr) return cudaErrorMemoryAllocation;
  count_allocation(*ptr, bytes);
  managed_memory::add(*ptr, bytes);
  return cudaSuccess;
}

namespace {
bool managed_range(const void* p, std::size_t bytes) {
  cudaPointerAttributes a;
  return cudaPointerGetAttributes(&a, p) == cudaSuccess && a.type == cudaMemoryTypeManaged &&
         global_memory::range_live(p, bytes);
}
}  // namespace

cudaError_t cudaMemPrefetchAsync(const void* ptr, std::size_t bytes, int device, cudaStream_t) {
  if (device != cudaCpuDeviceId && !valid_device(device)) return misuse("cudaMemPrefetchAsync", "invalid device");
  if (!managed_range(ptr, bytes)) return misuse("cudaMemPrefetchAsync", "the range is not managed memory");
  return cudaSuccess;
}
cudaError_t cudaMemAdvise(const void* ptr, std::size_t bytes, cudaMemoryAdvise, int device) {
  if (device != cudaCpuDeviceId && !valid_device(device)) return misuse("cudaMemAdvise", "invalid device");
  if (!managed_range(ptr, bytes)) return misuse("cudaMemAdvise", "the range is not managed memory");
  return cudaSuccess;
}
cudaError_t cudaStreamAttachMemAsync(cudaStream_t, void* ptr, std::size_t bytes, unsigned) {
  if (!managed_range(ptr, bytes ? bytes : 1)) return misuse("cudaStreamAttachMemAsync", "the range is not managed memory");
  return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  const auto a = reinterpret_cast<std::uintptr_t>(ptr);
  *attributes = cudaPointerAttributes{cudaMemoryTypeUnregistered, 0, nullptr, nullptr};
  if (managed_memory::in_managed_variables(a) ||
      (is_device_address(ptr) && memory::in_global(a) && managed_memory::is_managed(a))) {
    *attributes = cudaPointerAttributes{cudaMemoryTypeManaged, 0, const_cast<void*>(ptr), const_cast<void*>(ptr)};
  } else if (is_device_address(ptr)) {
    *attributes = cudaPointerAttributes{cudaMemoryTypeDevice, 0, const_cast<void*>(ptr), nullptr};
  } else {
    std::lock_guard<std::mutex> lock(pinned_mutex);
    if (pinned_blocks.count(const_cast<void*>(ptr)) || registered.count(const_cast<void*>(ptr)))
      *attributes = cudaPointerAttributes{cudaMemoryTypeHost, 0, const_cast<void*>(ptr), const_cast<void*>(ptr)};
  }
  return cudaSuccess;
}

cudaError_t cudaFree(void* ptr) {
  if (!ptr) return cudaSuccess;
  cudaDeviceSynchronize();  // cudaFree waits for the device, as on a GPU
  managed_memory::remove(ptr);
  using global_memory::FreeResult;
  switch (global_memory::deallocate(ptr)) {
    case FreeResult::freed: frees.fetch_add(1, std::memory_order_relaxed); return sticky_error();
    case FreeResult::not_device: return misuse("cudaFree", "the pointer is not device memory from cudaMalloc");
    case FreeResult::not_an_allocation:
      return misuse("cudaFree", "the pointer is not the start of a cudaMalloc buffer");
    case FreeResult::double_free: return misuse("cudaFree", "the buffer was already freed");
  }
  return cudaErrorInvalidValue;
}

cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) {
  if (!ptr) return misuse("cudaMallocHost", "the output pointer is null");
  *ptr = std::aligned_alloc(256, (bytes + 255) / 256 * 256 + 256);
  if (!*ptr) return cudaErrorMemoryAllocation;
  std::lock_guard<std::mutex> lock(pinned_mutex);
  pinned_blocks.insert(*ptr);
  return cudaSuccess;
}

cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned) { return cudaMallocHost(ptr, bytes); }

cudaError_t cudaFreeHost(void* ptr) {
  if (!ptr) return cudaSuccess;
  {
    std::lock_guard<std::mutex> lock(pinned_mutex);
    if (!pinned_blocks.erase(ptr))
      return misuse("cudaFreeHost", "the pointer is not from cudaMallocHost or cudaHostAlloc");
  }
  std::free(ptr);
  return cudaSuccess;
}

cudaError_t cudaHostRegister(void* ptr, std::size_t bytes, unsigned) {
  if (!ptr || bytes == 0) return misuse("cudaHostRegister", "the range is empty");
  if (is_device_address(ptr)) return misuse("cudaHostRegister", "the pointer is device memory");
  std::lock_guard<std::mutex> lock(pinned_mutex);
  if (!registered.insert(ptr).second) return cudaErrorHostMemoryAlreadyRegistered;
  return cudaSuccess;
}

cudaError_t cudaHostUnregister(void* ptr) {
  std::lock_guard<std::mutex> lock(pinned_mutex);
  return registered.erase(ptr) ? cudaSuccess : cudaErrorHostMemoryNotRegistered;
}

// Mapped (zero-copy) host memory: the device sees it at the same address (unified addressing).
// Kernels' accesses to host memory are not checked.
cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned) {
  std::lock_guard<std::mutex> lock(pinned_mutex);
  if (!pinned_blocks.count(host_ptr) && !registered.count(host_ptr))
    return misuse("cudaHostGetDevicePointer", "the pointer is not pinned host memory");
  *device_ptr = host_ptr;
  return cudaSuccess;
}

namespace {
cudaError_t copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (bytes == 0) return cudaSuccess;
  if (current_thread) return misuse("cudaMemcpy", "called from a kernel", cudaErrorNotSupported);
  if (cudaError_t e = sticky_error()) return e;
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
}  // namespace

// cudaMemcpy waits for the kernels before it (the default stream's order) and returns when the
// copy is done; cudaMemcpyAsync does neither.
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (!current_thread) managed_memory::synchronized_all();
  return copy(dst, src, bytes, kind);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t) {
  return copy(dst, src, bytes, kind);
}

cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes) {
  if (cudaError_t e = sticky_error()) return e;
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

// Streams are real handles, so that synchronizing one stream releases only its kernels'
// managed memory; work runs when it is issued, so every stream is always idle.
struct CUstream_st {
  unsigned flags = 0;
};

namespace {
Event* event_of(cudaEvent_t e) { return reinterpret_cast<Event*>(e); }
}  // namespace

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
  if (!stream) return misuse("cudaStreamCreate", "the output pointer is null");
  *stream = new CUstream_st{flags};
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned flags, int) {
  return cudaStreamCreateWithFlags(stream, flags);
}
namespace {
bool is_default_stream(cudaStream_t s) { return !s || s == cudaStreamLegacy || s == cudaStreamPerThread; }
}  // namespace
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (is_default_stream(stream)) return misuse("cudaStreamDestroy", "the default stream cannot be destroyed",
                                               cudaErrorInvalidResourceHandle);
  managed_memory::synchronized(stream);
  delete stream;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  managed_memory::synchronized(is_default_stream(stream) ? nullptr : stream);
  return cudaPeekAtLastError();
}
cudaError_t cudaStreamQuery(cudaStream_t stream) {
  // Every stream is idle here; a program that sees that may use what its kernels wrote.
  managed_memory::synchronized(is_default_stream(stream) ? nullptr : stream);
  return sticky_error();
}
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t event, unsigned) {
  return event ? cudaSuccess : cudaErrorInvalidResourceHandle;
}
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data) {
  if (!fn) return misuse("cudaLaunchHostFunc", "the function is null");
  managed_memory::synchronized(is_default_stream(stream) ? nullptr : stream);  // it runs after the stream's work
  fn(user_data);
  return cudaSuccess;
}
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* user_data, unsigned) {
  if (!callback) return misuse("cudaStreamAddCallback", "the callback is null");
  managed_memory::synchronized(is_default_stream(stream) ? nullptr : stream);
  callback(stream, cudaPeekAtLastError(), user_data);
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  *event = reinterpret_cast<cudaEvent_t>(new Event());
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned) { return cudaEventCreate(event); }
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event_of(event);
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!event) return cudaErrorInvalidResourceHandle;
  Event* e = event_of(event);
  e->when = std::chrono::steady_clock::now();
  e->recorded = true;
  e->stream = is_default_stream(stream) ? nullptr : stream;
  e->launches = managed_memory::launches_so_far();
  return sticky_error();
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (!event) return cudaErrorInvalidResourceHandle;
  const Event* e = event_of(event);
  if (e->recorded) managed_memory::synchronized_up_to(e->stream, e->launches);
  return sticky_error();
}
cudaError_t cudaEventQuery(cudaEvent_t event) { return cudaEventSynchronize(event); }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  auto* a = event_of(start);
  auto* b = event_of(end);
  if (!a || !b) return cudaErrorInvalidResourceHandle;
  if (!a->recorded || !b->recorded) return cudaErrorInvalidResourceHandle;
  *ms = std::chrono::duration<float, std::milli>(b->when - a->when).count();
  return cudaSuccess;
}

scanlab::sim::DeviceAllocations scanlab::sim::device_allocations() {
  return {allocations.load(std::memory_order_relaxed), allocated_bytes.load(std::memory_order_relaxed),
          frees.load(std::memory_order_relaxed)};
}
