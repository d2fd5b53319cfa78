// threadIdx, blockIdx, blockDim, gridDim and warpSize: read from the coordinates of the fiber
// that runs on this OS thread, which the scheduler sets at every switch.
#pragma once

#include <scanlab/sim/vector_types.hpp>

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
// The variables themselves, by value, from the runtime, which is not instrumented: read in lab
// code, each use would pass two loads (the pointer, then the field) through the simulator's
// access hook, which has nothing to check in them, and a loop bounded by blockDim.x would pay
// both at every iteration. Pure: a CUDA thread's coordinates never change while it runs, so the
// compiler reads them once where nothing is stored in between. Outside a kernel they report the
// line of the use (from the return address) and end the program.
__attribute__((pure)) uint3 thread_idx();
__attribute__((pure)) uint3 block_idx();
__attribute__((pure)) dim3 block_dim();
__attribute__((pure)) dim3 grid_dim();
}  // namespace scanlab::sim::detail

#define threadIdx (::scanlab::sim::detail::thread_idx())
#define blockIdx (::scanlab::sim::detail::block_idx())
#define blockDim (::scanlab::sim::detail::block_dim())
#define gridDim (::scanlab::sim::detail::grid_dim())
inline constexpr int warpSize = 32;
