// CUDA's error codes, and the error a launch leaves behind: it waits, as on a GPU, until
// cudaGetLastError reads it or the device is reset.
#include "findings/errors.hpp"

#include <mutex>

namespace scanlab::sim::detail {
namespace {

std::mutex error_mutex;
cudaError_t pending_error = cudaSuccess;
cudaError_t stuck_error = cudaSuccess;

// The errors after which a GPU's context cannot go on (CUDA's "sticky" errors). A launch the
// simulator stopped for a deadlock (cudaErrorLaunchTimeout) is not among them: a GPU would hang
// instead, and the program is let go on to show what else it does.
bool sticks(cudaError_t error) { return error == cudaErrorIllegalAddress || error == cudaErrorLaunchFailure; }

}  // namespace

void set_pending_error(cudaError_t error) {
  std::lock_guard<std::mutex> lock(error_mutex);
  if (pending_error == cudaSuccess) pending_error = error;
  if (stuck_error == cudaSuccess && sticks(error)) stuck_error = error;
}

cudaError_t sticky_error() {
  std::lock_guard<std::mutex> lock(error_mutex);
  return stuck_error;
}

void forget_sticky_error() {
  std::lock_guard<std::mutex> lock(error_mutex);
  stuck_error = cudaSuccess;
}

}  // namespace scanlab::sim::detail

using scanlab::sim::detail::error_mutex;
using scanlab::sim::detail::pending_error;
using scanlab::sim::detail::stuck_error;

const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
    case cudaErrorCooperativeLaunchTooLarge: return "cudaErrorCooperativeLaunchTooLarge";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    case cudaErrorInvalidSymbol: return "cudaErrorInvalidSymbol";
    case cudaErrorInsufficientDriver: return "cudaErrorInsufficientDriver";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorHostMemoryAlreadyRegistered: return "cudaErrorHostMemoryAlreadyRegistered";
    case cudaErrorHostMemoryNotRegistered: return "cudaErrorHostMemoryNotRegistered";
    case cudaErrorUnknown: return "cudaErrorUnknown";
  }
  return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInsufficientDriver: return "CUDA driver version is insufficient for CUDA runtime version";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorHostMemoryAlreadyRegistered: return "part or all of the requested memory range is already mapped";
    case cudaErrorHostMemoryNotRegistered: return "pointer does not correspond to a registered memory region";
    case cudaErrorUnknown: return "unknown error";
  }
  return "unknown error";
}

cudaError_t cudaGetLastError() {
  std::lock_guard<std::mutex> lock(error_mutex);
  cudaError_t e = pending_error;
  pending_error = cudaSuccess;
  return e == cudaSuccess ? stuck_error : e;
}

cudaError_t cudaPeekAtLastError() {
  std::lock_guard<std::mutex> lock(error_mutex);
  return pending_error == cudaSuccess ? stuck_error : pending_error;
}

cudaError_t cudaDeviceReset() {
  std::lock_guard<std::mutex> lock(error_mutex);
  pending_error = cudaSuccess;
  stuck_error = cudaSuccess;
  return cudaSuccess;
}
