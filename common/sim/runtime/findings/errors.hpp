// The error a failed launch leaves for cudaGetLastError, as on a GPU: the first one waits until it
// is read (or the device is reset). An error that corrupts a GPU's context (an illegal address, a
// launch failure) sticks: every later call returns it until the device is reset.
#pragma once

#include "scanlab/sim/cuda.hpp"

namespace scanlab::sim::detail {

void set_pending_error(cudaError_t error);
// The error that stuck, or cudaSuccess: calls that use the device return it instead of working.
cudaError_t sticky_error();
// A program that judges several runs apart (forget_reported_places) starts each on a device whose
// earlier error no longer sticks.
void forget_sticky_error();

}  // namespace scanlab::sim::detail
