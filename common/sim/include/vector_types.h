// <vector_types.h> as lab code sees it on the simulator backend: CUDA's vector types, in the simulator's
// one CUDA header.
#pragma once
#include <scanlab/sim/cuda.hpp>
