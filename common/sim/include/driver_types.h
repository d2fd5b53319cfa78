// <driver_types.h> as lab code sees it on the simulator backend: the runtime's types and error codes, in the simulator's
// one CUDA header.
#pragma once
#include <scanlab/sim/cuda.hpp>
