// The error a failed launch leaves for cudaGetLastError, as on a GPU: the first one waits until it
// is read (or the device is reset).
#pragma once

#include "scanlab/sim/cuda.hpp"

namespace scanlab::sim::detail {

void set_pending_error(cudaError_t error);

}  // namespace scanlab::sim::detail
