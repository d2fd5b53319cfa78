// <curand_kernel.h>: not part of what the scanlab simulator runs; the build stops at the
// program's #include (simcc names that line) with the feature named.
#pragma once
#error "cuRAND's device generators (curand_kernel.h): generate random numbers on the host and copy them is not supported by the scanlab CPU simulator"
