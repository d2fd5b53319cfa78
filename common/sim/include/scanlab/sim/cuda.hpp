// The CUDA C++ surface of the CPU simulator: what a .cu file may use, compiled by a host
// compiler. Kernels run as fibers (see runtime/), one per CUDA thread.
//
// Lab code never includes this file itself: the rewriter (tools/cu_rewrite.py) puts it at the
// top of every .cu, and <cuda_runtime.h> on the simulator's include path points here.
//
// One header per concern in cuda/, included here in the order they build on each other; a concern
// header includes what it needs and compiles alone. The five headers at the end come last because
// warp_reduce.hpp and launch.hpp use the declarations above them without including them.
#pragma once

// What nvcc's cuda_runtime.h brings along, and programs use without including it.
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

#include <scanlab/sim/cuda/call_site.hpp>
#include <scanlab/sim/cuda/qualifiers.hpp>
#include <scanlab/sim/cuda/version.hpp>

// The runtime API, host side.
#include <scanlab/sim/cuda/errors.hpp>
#include <scanlab/sim/cuda/device.hpp>
#include <scanlab/sim/cuda/streams.hpp>
#include <scanlab/sim/cuda/memory.hpp>
#include <scanlab/sim/cuda/symbols.hpp>
#include <scanlab/sim/cuda/occupancy.hpp>

// Device code.
#include <scanlab/sim/cuda/builtin_variables.hpp>
#include <scanlab/sim/cuda/barriers.hpp>
#include <scanlab/sim/cuda/atomics.hpp>
#include <scanlab/sim/cuda/warp.hpp>
#include <scanlab/sim/cuda/bit_intrinsics.hpp>
#include <scanlab/sim/cuda/cache_hints.hpp>
#include <scanlab/sim/cuda/math.hpp>

#include <scanlab/sim/device_functions.hpp>
#include <scanlab/sim/warp_reduce.hpp>
#include <scanlab/sim/launch.hpp>
#include <scanlab/sim/launch_by_arguments.hpp>
#include <scanlab/sim/shared_memory.hpp>
