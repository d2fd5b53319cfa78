// <cuda_pipeline_primitives.h> as lab code sees it on the simulator backend: sm_80's
// asynchronous copies in groups of one thread (scanlab/sim/pipeline_copies.hpp).
#pragma once
#include <scanlab/sim/pipeline_copies.hpp>
