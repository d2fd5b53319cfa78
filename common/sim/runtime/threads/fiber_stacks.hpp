// Stacks for the fibers that run CUDA threads, as a Boost.Context stack allocator: small, each
// with a guard page that turns an overflow into a crash, and reused from launch to launch
// instead of being mapped anew for every fiber.
#pragma once

#include <boost/context/stack_context.hpp>

namespace scanlab::sim::detail {

struct PooledStack {
  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context& sc) noexcept;
};

}  // namespace scanlab::sim::detail
