// <sm_32_intrinsics.h> as lab code sees it on the simulator backend: CUDA's intrinsics (__ldg), in the simulator's
// one CUDA header.
#pragma once
#include <scanlab/sim/cuda.hpp>
