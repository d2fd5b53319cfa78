// Macros by which programs and libraries recognize CUDA's runtime: kept apart from the API so
// that what a program tests is found in one place.
#pragma once

// What CUDA's own headers define, and programs test: the runtime's version (12.4, the
// interface this file follows) and the include guards of the runtime headers (the CUDA
// samples' helper_cuda.h defines checkCudaErrors only when __DRIVER_TYPES_H__ is defined).
#define CUDART_VERSION 12040
#define __CUDART_API_VERSION 12040
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __HOST_DEFINES_H__
#define __DEVICE_TYPES_H__
#define __VECTOR_TYPES_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
// Thrust's device algorithms run on the host, in its C++ device system: device_vector's storage
// is host memory, which kernels reach through raw_pointer_cast without the simulator's checks.
#ifndef THRUST_DEVICE_SYSTEM
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#endif
