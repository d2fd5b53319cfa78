// Whether a GPU would run a launch as configured: block and grid dimensions, dynamic shared memory.
#pragma once

#include "scanlab/sim/cuda.hpp"

namespace scanlab::sim::detail {

// False when the device would refuse the launch: reported, with the error left for cudaGetLastError.
bool valid_launch_configuration(const LaunchRequest& request);

}  // namespace scanlab::sim::detail
