// <cub/device/device_reduce.cuh>: not part of what the scanlab simulator runs; the build stops at the
// program's #include (simcc names that line) with the feature named.
#pragma once
#error "CUB's device reduce (cub/device/device_reduce.cuh) is not supported by the scanlab CPU simulator"
