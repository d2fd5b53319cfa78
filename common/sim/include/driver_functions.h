// <driver_functions.h> as lab code sees it on the simulator backend: the runtime's helper functions, in the simulator's
// one CUDA header.
#pragma once
#include <scanlab/sim/cuda.hpp>
