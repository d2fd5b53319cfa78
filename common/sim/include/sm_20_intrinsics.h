// <sm_20_intrinsics.h> as lab code sees it on the simulator backend: CUDA's intrinsics, in the simulator's
// one CUDA header.
#pragma once
#include <scanlab/sim/cuda.hpp>
