// <curand.h>: not part of what the scanlab simulator runs; the build stops at the
// program's #include (simcc names that line) with the feature named.
#pragma once
#error "cuRAND (curand.h): generate random numbers on the host is not supported by the scanlab CPU simulator"
