// Thrust's <thrust/execution_policy.h> includes the device system's execution policies: under
// nvcc, CUDA's, so thrust::cuda::par needs no other #include. The simulator's device system is
// Thrust's C++ system: this header is Thrust's own for it, followed by the simulator's
// thrust::cuda policies, which run in it.
#pragma once

#include_next <thrust/system/cpp/execution_policy.h>

#include <thrust/system/cuda/execution_policy.h>
