// Floating-point operations in a directed rounding mode (CUDA's _rz, _ru, _rd intrinsics, and
// _rn): the processor's rounding mode is switched for the one operation and set back to
// round-to-nearest, the mode every other line of lab code assumes. The operands and the result
// pass through volatile objects so that the compiler, which assumes the default mode, can
// neither fold the operation at compile time nor move it across the mode switches. The rounding
// mode belongs to the OS thread, and a fiber switch never happens inside these functions.
#include <cfenv>
#include <cmath>

#include <scanlab/sim/device_functions.hpp>

namespace scanlab::sim::detail {
namespace {

template <class Operation>
auto in_mode(Rounding mode, Operation operation) {
  std::fesetround(static_cast<int>(mode));
  const auto result = operation();
  std::fesetround(FE_TONEAREST);
  return result;
}

template <class T>
T add(T a, T b, Rounding r) {
  volatile T x = a, y = b;
  return in_mode(r, [&] { volatile T z = x + y; return static_cast<T>(z); });
}
template <class T>
T mul(T a, T b, Rounding r) {
  volatile T x = a, y = b;
  return in_mode(r, [&] { volatile T z = x * y; return static_cast<T>(z); });
}
template <class T>
T div(T a, T b, Rounding r) {
  volatile T x = a, y = b;
  return in_mode(r, [&] { volatile T z = x / y; return static_cast<T>(z); });
}
template <class T>
T fma(T a, T b, T c, Rounding r) {
  volatile T x = a, y = b, w = c;
  return in_mode(r, [&] { volatile T z = std::fma(static_cast<T>(x), static_cast<T>(y), static_cast<T>(w)); return static_cast<T>(z); });
}
template <class T>
T sqrt(T a, Rounding r) {
  volatile T x = a;
  return in_mode(r, [&] { volatile T z = std::sqrt(static_cast<T>(x)); return static_cast<T>(z); });
}
template <class To, class From>
To convert(From a, Rounding r) {
  volatile From x = a;
  return in_mode(r, [&] { volatile To z = static_cast<To>(x); return static_cast<To>(z); });
}

}  // namespace

float rounded_add(float a, float b, Rounding r) { return add(a, b, r); }
float rounded_mul(float a, float b, Rounding r) { return mul(a, b, r); }
float rounded_div(float a, float b, Rounding r) { return div(a, b, r); }
float rounded_fma(float a, float b, float c, Rounding r) { return fma(a, b, c, r); }
float rounded_sqrt(float a, Rounding r) { return sqrt(a, r); }
double rounded_add(double a, double b, Rounding r) { return add(a, b, r); }
double rounded_mul(double a, double b, Rounding r) { return mul(a, b, r); }
double rounded_div(double a, double b, Rounding r) { return div(a, b, r); }
double rounded_fma(double a, double b, double c, Rounding r) { return fma(a, b, c, r); }
double rounded_sqrt(double a, Rounding r) { return sqrt(a, r); }
float rounded_to_float(double x, Rounding r) { return convert<float>(x, r); }
float rounded_to_float(long long x, Rounding r) { return convert<float>(x, r); }
float rounded_to_float(unsigned long long x, Rounding r) { return convert<float>(x, r); }
double rounded_to_double(long long x, Rounding r) { return convert<double>(x, r); }
double rounded_to_double(unsigned long long x, Rounding r) { return convert<double>(x, r); }

}  // namespace scanlab::sim::detail
