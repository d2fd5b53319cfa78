// <sm_35_atomic_functions.h> as lab code sees it on the simulator backend: CUDA's atomics, in the simulator's
// one CUDA header.
#pragma once
#include <scanlab/sim/cuda.hpp>
