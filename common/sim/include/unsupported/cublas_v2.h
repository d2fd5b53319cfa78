// <cublas_v2.h>: not part of what the scanlab simulator runs; the build stops at the
// program's #include (simcc names that line) with the feature named.
#pragma once
#error "cuBLAS (cublas_v2.h) is not supported by the scanlab CPU simulator"
