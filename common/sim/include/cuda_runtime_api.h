// The CUDA runtime header as lab code sees it on the simulator backend.
#pragma once
#include <scanlab/sim/cuda.hpp>
