// <host_defines.h> as lab code sees it on the simulator backend: CUDA's qualifiers (__global__, __device__, ...), in the simulator's
// one CUDA header.
#pragma once
#include <scanlab/sim/cuda.hpp>
