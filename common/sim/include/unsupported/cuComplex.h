// <cuComplex.h>: not part of what the scanlab simulator runs; the build stops at the
// program's #include (simcc names that line) with the feature named.
#pragma once
#error "CUDA's complex numbers (cuComplex.h): use std::complex is not supported by the scanlab CPU simulator"
