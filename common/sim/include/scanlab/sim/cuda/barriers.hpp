// Block-wide barriers and the warp barrier, each checked for divergence at the call site it is
// given.
#pragma once

#include <scanlab/sim/cuda/call_site.hpp>

// Call sites travel explicitly: an optimizer may merge two textually different calls.
void __syncthreads(SCANLAB_SIM_SITE_PARAMS);
int __syncthreads_count(int predicate, SCANLAB_SIM_SITE_PARAMS);
int __syncthreads_and(int predicate, SCANLAB_SIM_SITE_PARAMS);
int __syncthreads_or(int predicate, SCANLAB_SIM_SITE_PARAMS);
void __syncwarp(unsigned mask = 0xffffffffu, SCANLAB_SIM_SITE_PARAMS);
