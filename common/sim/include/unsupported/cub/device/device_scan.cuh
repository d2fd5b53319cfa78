// <cub/device/device_scan.cuh>: not part of what the scanlab simulator runs; the build stops at the
// program's #include (simcc names that line) with the feature named.
#pragma once
#error "CUB's device scan (cub/device/device_scan.cuh) is not supported by the scanlab CPU simulator"
