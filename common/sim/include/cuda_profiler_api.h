// <cuda_profiler_api.h> on the simulator backend: there is no profiler to start or stop.
#pragma once
#include <scanlab/sim/cuda.hpp>

inline cudaError_t cudaProfilerStart() { return cudaSuccess; }
inline cudaError_t cudaProfilerStop() { return cudaSuccess; }
