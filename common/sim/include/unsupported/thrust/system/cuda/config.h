// <thrust/system/cuda/config.h>: Thrust's CUDA back end, which only nvcc compiles. The scanlab CPU
// simulator runs Thrust in its C++ device system: thrust::device, thrust::cuda::par (and with an
// allocator, .on(stream)), thrust::cuda::malloc and free. The build stops at the program's
// #include (simcc names that line) with the header named.
#pragma once
#error "<thrust/system/cuda/config.h> (Thrust's CUDA back end) is not supported by the scanlab CPU simulator: it runs Thrust's algorithms through thrust::device, thrust::cuda::par and <thrust/system/cuda/execution_policy.h>, <thrust/system/cuda/memory.h>"
