// The lane masks of the calling thread, from the GPU's special registers: bit k of
// lanemask_lt() is set for every lane k below the caller's, and so on. Lab 08's students
// write the same masks with arithmetic; the grader compares the two. On the simulator the
// registers are computed from the thread's lane.
#pragma once

#include <cuda_runtime.h>

namespace scanlab {

#if defined(SCANLAB_SIM)
namespace lane_masks_detail {
inline unsigned lane() {
    const unsigned linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    return linear % warpSize;
}
}  // namespace lane_masks_detail
inline unsigned lane_id() { return lane_masks_detail::lane(); }
inline unsigned lanemask_lt() { return (1u << lane_id()) - 1u; }
inline unsigned lanemask_le() { return lanemask_lt() | (1u << lane_id()); }
inline unsigned lanemask_gt() { return ~lanemask_le(); }
inline unsigned lanemask_ge() { return ~lanemask_lt(); }
#else
__device__ __forceinline__ unsigned lane_id() {
    unsigned value;
    asm("mov.u32 %0, %%laneid;" : "=r"(value));
    return value;
}
__device__ __forceinline__ unsigned lanemask_lt() {
    unsigned value;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(value));
    return value;
}
__device__ __forceinline__ unsigned lanemask_le() {
    unsigned value;
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(value));
    return value;
}
__device__ __forceinline__ unsigned lanemask_gt() {
    unsigned value;
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(value));
    return value;
}
__device__ __forceinline__ unsigned lanemask_ge() {
    unsigned value;
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(value));
    return value;
}
#endif

}  // namespace scanlab
