// Launches made through the runtime API instead of <<<...>>>: cudaLaunchKernel and
// cudaLaunchCooperativeKernel (the kernel's arguments as an array of pointers to them) and
// cudaLaunchKernelEx (a configuration with attributes, and the arguments themselves). Each is the
// same launch as <<<...>>>, at the program's line; a cooperative one (cudaLaunchCooperativeKernel,
// or the attribute cudaLaunchAttributeCooperative) runs every block at once, lets grid_group::sync
// work, and fails with cudaErrorCooperativeLaunchTooLarge where the device would not hold its grid.
//
// CUDA takes the kernel as `const void*`; the simulator needs its type to call it, so the rewriter
// (tools/cu_rewrite.py) drops a cast to void* from these calls' first argument
// (`cudaLaunchCooperativeKernel((void*)kernel, ...)`), and a pointer held in a void* variable is
// refused at the call.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include <scanlab/sim/cuda/call_site.hpp>
#include <scanlab/sim/cuda/errors.hpp>
#include <scanlab/sim/cuda/streams.hpp>
#include <scanlab/sim/launch.hpp>

enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8,
};
using cudaLaunchAttributeId = cudaLaunchAttributeID;

union cudaLaunchAttributeValue {
  char pad[64];
  int cooperative;  // cudaLaunchAttributeCooperative: nonzero for a cooperative launch
  struct {
    unsigned x, y, z;
  } clusterDim;
  int priority;
};

struct cudaLaunchAttribute {
  cudaLaunchAttributeID id;
  char pad[8 - sizeof(cudaLaunchAttributeID)];
  cudaLaunchAttributeValue val;
};

// gridDim and blockDim are the built-in variables' macros here: the rewriter spells a program's
// `config.gridDim` as `config.grid_dim_`.
struct cudaLaunchConfig_t {
  dim3 grid_dim_;
  dim3 block_dim_;
  std::size_t dynamicSmemBytes = 0;
  cudaStream_t stream = nullptr;
  cudaLaunchAttribute* attrs = nullptr;
  unsigned numAttrs = 0;
};

namespace scanlab::sim::detail {

template <class... P, std::size_t... I>
void launch_from_array(KernelLaunch& launch, void (*kernel)(P...), void** args, std::index_sequence<I...>) {
  launch(kernel, *static_cast<std::remove_cv_t<P>*>(args[I])...);
}

template <class... P>
cudaError_t launch_by_arguments(bool cooperative, void (*kernel)(P...), dim3 grid, dim3 block, void** args,
                                std::size_t shared_bytes, cudaStream_t stream, const char* file, unsigned line) {
  KernelLaunch launch(file, line, grid, block, shared_bytes, stream);
  if (cooperative) launch.cooperative();
  launch_from_array(launch, kernel, args, std::index_sequence_for<P...>{});
  return cudaPeekAtLastError();
}

// cudaLaunchKernelEx's configuration and the program's line, which its defaulted arguments
// take where the call converts the configuration's pointer.
struct ConfigAtCall {
  const cudaLaunchConfig_t* config;
  const char* file;
  unsigned line;
  ConfigAtCall(const cudaLaunchConfig_t* c, const char* f = __builtin_FILE(), unsigned l = __builtin_LINE())
      : config(c), file(f), line(l) {}
  bool cooperative() const {
    for (unsigned i = 0; i < config->numAttrs; ++i)
      if (config->attrs[i].id == cudaLaunchAttributeCooperative && config->attrs[i].val.cooperative) return true;
    return false;
  }
};

template <class... A>
constexpr bool kernel_not_named = false;

}  // namespace scanlab::sim::detail

template <class... P>
cudaError_t cudaLaunchKernel(void (*kernel)(P...), dim3 grid, dim3 block, void** args, std::size_t shared_bytes = 0,
                             cudaStream_t stream = nullptr, SCANLAB_SIM_SITE_PARAMS) {
  return scanlab::sim::detail::launch_by_arguments(false, kernel, grid, block, args, shared_bytes, stream,
                                                   scanlab_file, scanlab_line);
}

template <class... P>
cudaError_t cudaLaunchCooperativeKernel(void (*kernel)(P...), dim3 grid, dim3 block, void** args,
                                        std::size_t shared_bytes = 0, cudaStream_t stream = nullptr,
                                        SCANLAB_SIM_SITE_PARAMS) {
  return scanlab::sim::detail::launch_by_arguments(true, kernel, grid, block, args, shared_bytes, stream,
                                                   scanlab_file, scanlab_line);
}

// A kernel held in a void* variable: its type is lost, and the simulator cannot call it.
template <class Unsupported = void>
cudaError_t cudaLaunchKernel(const void*, dim3, dim3, void**, std::size_t = 0, cudaStream_t = nullptr) {
  static_assert(scanlab::sim::detail::kernel_not_named<Unsupported>,
                "cudaLaunchKernel: the scanlab simulator calls the kernel by its type; pass the kernel itself "
                "(kernel or (void*)kernel), not a pointer kept in a void* variable");
  return cudaErrorNotSupported;
}
template <class Unsupported = void>
cudaError_t cudaLaunchCooperativeKernel(const void*, dim3, dim3, void**, std::size_t = 0, cudaStream_t = nullptr) {
  static_assert(scanlab::sim::detail::kernel_not_named<Unsupported>,
                "cudaLaunchCooperativeKernel: the scanlab simulator calls the kernel by its type; pass the kernel "
                "itself (kernel or (void*)kernel), not a pointer kept in a void* variable");
  return cudaErrorNotSupported;
}

// The C++ form: the arguments themselves, converted to the kernel's parameter types as a call would.
template <class... P, class... A>
cudaError_t cudaLaunchKernelEx(scanlab::sim::detail::ConfigAtCall at, void (*kernel)(P...), A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "cudaLaunchKernelEx: as many arguments as the kernel has parameters");
  const cudaLaunchConfig_t& c = *at.config;
  scanlab::sim::KernelLaunch launch(at.file, at.line, c.grid_dim_, c.block_dim_, c.dynamicSmemBytes, c.stream);
  if (at.cooperative()) launch.cooperative();
  launch(kernel, static_cast<std::remove_cv_t<P>>(std::forward<A>(args))...);
  return cudaPeekAtLastError();
}
