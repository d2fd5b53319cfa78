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
};
void launch(const LaunchRequest& request);
}  // namespace detail

class KernelLaunch {
 public:
  KernelLaunch(const char* file, unsigned line, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes = 0,
               cudaStream_t stream = nullptr)
      : request_{grid, block, dynamic_shared_bytes, file, line, nullptr, nullptr, stream} {}

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
    detail::launch(request_);
  }

 private:
  detail::LaunchRequest request_;
};

}  // namespace scanlab::sim
