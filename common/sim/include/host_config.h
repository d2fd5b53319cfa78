// <host_config.h> as lab code sees it on the simulator backend: CUDA's host compiler configuration, in the simulator's
// one CUDA header.
#pragma once
#include <scanlab/sim/cuda.hpp>
