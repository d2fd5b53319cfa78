// <cooperative_groups/memcpy_async.h>: asynchronous copies are not simulated.
#pragma once
#error "cooperative_groups::memcpy_async is not supported by the scanlab simulator: copy with plain loads and stores, then sync the group"
