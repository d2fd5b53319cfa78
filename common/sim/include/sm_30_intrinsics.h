// <sm_30_intrinsics.h> as lab code sees it on the simulator backend: CUDA's warp intrinsics, in the simulator's
// one CUDA header.
#pragma once
#include <scanlab/sim/cuda.hpp>
