// What CUDA's math headers add to the host's <cmath>: the constants of math_constants.h that
// programs use without including it, and device min/max overloads that defer to a program's own.
#pragma once

#define CUDART_INF_F __builtin_huge_valf()
#define CUDART_INF __builtin_huge_val()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_NAN __builtin_nan("")

// Device-side min/max, as CUDA's math headers declare them: overloads by value, so they win over
// std::min/std::max in code that says `using namespace std;`. Each is a template with nothing to
// deduce, so that a program's own host version of the same signature is another overload, one
// that wins, not a redefinition: NVIDIA's helper_math.h defines `int max(int, int)` and
// `int min(int, int)` where __CUDACC__ is not defined, as it is not here (defining it would
// switch Thrust to its CUDA back end).
#define SCANLAB_SIM_MIN_MAX(A, B, R)                                                                          \
  template <class = void>                                                                                     \
  inline R min(A a, B b) { return static_cast<R>(b) < static_cast<R>(a) ? static_cast<R>(b) : static_cast<R>(a); } \
  template <class = void>                                                                                     \
  inline R max(A a, B b) { return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(b) : static_cast<R>(a); }
SCANLAB_SIM_MIN_MAX(int, int, int)
SCANLAB_SIM_MIN_MAX(unsigned, unsigned, unsigned)
SCANLAB_SIM_MIN_MAX(int, unsigned, unsigned)
SCANLAB_SIM_MIN_MAX(unsigned, int, unsigned)
SCANLAB_SIM_MIN_MAX(long, long, long)
SCANLAB_SIM_MIN_MAX(unsigned long, unsigned long, unsigned long)
SCANLAB_SIM_MIN_MAX(long long, long long, long long)
SCANLAB_SIM_MIN_MAX(unsigned long long, unsigned long long, unsigned long long)
SCANLAB_SIM_MIN_MAX(float, float, float)
SCANLAB_SIM_MIN_MAX(double, double, double)
SCANLAB_SIM_MIN_MAX(float, double, double)
SCANLAB_SIM_MIN_MAX(double, float, double)
#undef SCANLAB_SIM_MIN_MAX
