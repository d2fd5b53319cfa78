// <cooperative_groups/reduce.h> as lab code sees it on the simulator backend.
#pragma once
#include <scanlab/sim/cooperative_groups_collectives.hpp>
