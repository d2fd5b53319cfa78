// A lab's reference solution in a namespace of its own, beside the submission in one test
// program (for the performance check, performance_check.hpp). A lab's performance_reference.cu:
//
//   #include "reference_solution.hpp"
//   namespace scanlab_reference {
//   #include SCANLAB_REFERENCE_SOURCE
//   template void hierarchical_scan<int, scanlab::Plus<int>>(...);  // what the check calls
//   }
//
// Everything the solution defines (kernels, helpers, constants, earlier labs it includes)
// becomes scanlab_reference::..., so nothing clashes with the submission's own definitions.
// The headers a solution includes must be included here first, outside the namespace: their
// include guards then make the solution's own #include lines no-ops. A solution that includes a
// header missing here fails to build on the cuda backend, inside this namespace: add it here.
#pragma once

#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "scanlab/cuda_check.hpp"
#include "scanlab/operators.hpp"
#include "scanlab/section_size.hpp"
#include "scanlab/shared_alignment.hpp"
