// Kernel launches. The rewriter turns `kernel<<<grid, block, shmem, stream>>>(a, b)` into
//   ::scanlab::sim::KernelLaunch(__FILE__, __LINE__, grid, block, shmem, stream)(
//       [&](auto&&... args) { kernel(args...); }, a, b)
// so template arguments of the kernel are deduced exactly as in a call, the arguments are
// evaluated once, and every CUDA thread gets its own copy of the parameters.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <scanlab/sim/cuda/streams.hpp>
#include <scanlab/sim/vector_types.hpp>

namespace scanlab::sim {
namespace detail {
struct LaunchRequest {
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared_bytes;
  const char* file;
  unsigned line;
  void (*thread_entry)(const void* kernel_call);  // runs the kernel body for the calling CUDA thread
  const void* kernel_call;
  cudaStream_t stream;
  // For replaying a launch identical to an earlier one (runtime/launch/launch_replay.hpp): the bytes of
  // the kernel's arguments, the extent of the call object that kernel code reads them from, and
  // whether the arguments are plain values and the kernel a function named at the launch (a
  // function pointer held in a variable could name another kernel next time).
  const void* arguments = nullptr;
  std::size_t argument_bytes = 0;
  std::size_t kernel_call_bytes = 0;
  bool replayable = false;
  // cudaLaunchCooperativeKernel: every block at once, or the launch fails; grid_group::sync works.
  bool cooperative = false;
};
void launch(const LaunchRequest& request);
}  // namespace detail

class KernelLaunch {
 public:
  KernelLaunch(const char* file, unsigned line, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes = 0,
               cudaStream_t stream = nullptr)
      : request_{grid, block, dynamic_shared_bytes, file, line, nullptr, nullptr, stream} {}
  KernelLaunch& cooperative() {
    request_.cooperative = true;
    return *this;
  }

  template <class Kernel, class... Args>
  void operator()(Kernel kernel, Args&&... args) {
    struct Call {
      Kernel& kernel;
      std::tuple<std::decay_t<Args>...> arguments;
    } call{kernel, std::tuple<std::decay_t<Args>...>(std::forward<Args>(args)...)};
    request_.thread_entry = [](const void* p) {
      const Call& c = *static_cast<const Call*>(p);
      std::apply(c.kernel, c.arguments);
    };
    request_.kernel_call = &call;
    request_.arguments = &call.arguments;
    request_.argument_bytes = sizeof(call.arguments);
    request_.kernel_call_bytes = sizeof(call);
    request_.replayable = std::is_empty_v<Kernel> && (std::is_trivially_copyable_v<std::decay_t<Args>> && ...);
    detail::launch(request_);
  }

 private:
  detail::LaunchRequest request_;
};

}  // namespace scanlab::sim
