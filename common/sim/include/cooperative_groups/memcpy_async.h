// <cooperative_groups/memcpy_async.h> as lab code sees it on the simulator backend: a group's
// asynchronous copy with cooperative_groups::wait / wait_prior (scanlab/sim/pipeline_copies.hpp).
#pragma once
#include <cooperative_groups.h>
#include <scanlab/sim/pipeline_copies.hpp>
