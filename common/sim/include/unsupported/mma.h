// <mma.h>: not part of what the scanlab simulator runs; the build stops at the
// program's #include (simcc names that line) with the feature named.
#pragma once
#error "warp matrix operations (WMMA, mma.h) is not supported by the scanlab CPU simulator"
