// <device_types.h> as lab code sees it on the simulator backend: the runtime's device types, in the simulator's
// one CUDA header.
#pragma once
#include <scanlab/sim/cuda.hpp>
