// CUDA's function and variable qualifiers: device code is host code here, so they mean nothing
// to the host compiler beyond alignment, inlining and the section of managed variables.
#pragma once

#define __global__
#define __device__
#define __host__
#define __constant__
// Managed variables are gathered in one section, so that host accesses to them can be told from
// others (runtime/memory/managed_memory.hpp).
#define __managed__ __attribute__((section("scanlab_managed"), used))
#define __forceinline__ inline __attribute__((always_inline))
#define __restrict__ __restrict
#define __align__(n) alignas(n)
#define __launch_bounds__(...)
#define __grid_constant__
#define __CUDA_ALIGN__(n) alignas(n)
// __shared__ is rewritten by tools/cu_rewrite.py into per-block storage before compilation.
