// CUDA's device function table beyond the warp and bit intrinsics: the integer intrinsics
// (24-bit and high-half multiplies, sums of absolute differences, halving adds, byte
// permutes, funnel shifts, dot products of bytes), the floating-point intrinsics with a named
// rounding mode (_rn, _rz, _ru, _rd), the conversions between integers and floating point,
// and the fast approximations (__expf, __fdividef, ...), as CUDA defines them.
//
// The results are the GPU's where CUDA defines them exactly: conversions to integers saturate
// and turn NaN into 0, as PTX's cvt does (a C++ cast would be undefined); directed roundings
// are exact. The fast approximations (__expf, __sinf, ...) return the accurate value, which is
// within the GPU's stated error bound. Arithmetic in a directed rounding mode runs out of line
// (runtime/entry/rounding_modes.cpp): it switches the processor's rounding mode, which only code
// the compiler cannot rearrange may do.
#pragma once

#include <cfenv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace scanlab::sim::detail {

enum class Rounding { nearest = FE_TONEAREST, toward_zero = FE_TOWARDZERO, up = FE_UPWARD, down = FE_DOWNWARD };

// runtime/entry/rounding_modes.cpp: one operation, rounded as asked.
float rounded_add(float a, float b, Rounding r);
float rounded_mul(float a, float b, Rounding r);
float rounded_div(float a, float b, Rounding r);
float rounded_fma(float a, float b, float c, Rounding r);
float rounded_sqrt(float a, Rounding r);
double rounded_add(double a, double b, Rounding r);
double rounded_mul(double a, double b, Rounding r);
double rounded_div(double a, double b, Rounding r);
double rounded_fma(double a, double b, double c, Rounding r);
double rounded_sqrt(double a, Rounding r);
float rounded_to_float(double x, Rounding r);
float rounded_to_float(long long x, Rounding r);
float rounded_to_float(unsigned long long x, Rounding r);
double rounded_to_double(long long x, Rounding r);
double rounded_to_double(unsigned long long x, Rounding r);

// x rounded to an integral value as asked (in the default rounding mode, which is to nearest
// even: the simulator never leaves another one set).
template <class F>
F round_integral(F x, Rounding r) {
  switch (r) {
    case Rounding::toward_zero: return std::trunc(x);
    case Rounding::up: return std::ceil(x);
    case Rounding::down: return std::floor(x);
    case Rounding::nearest: break;
  }
  return std::nearbyint(x);
}

// PTX's float-to-integer conversion: rounded as asked, clamped to the integer's range, NaN to 0.
template <class I, class F>
I convert_saturating(F x, Rounding r) {
  if (std::isnan(x)) return 0;
  const F y = round_integral(x, r);
  // The bounds as F: the lowest is a power of two (or 0), exact; the highest is not, so compare
  // against 2^digits, the first value past it.
  const F lowest = static_cast<F>(std::numeric_limits<I>::lowest());
  const F past_highest = std::ldexp(F(1), std::numeric_limits<I>::digits);
  if (y < lowest) return std::numeric_limits<I>::lowest();
  if (y >= past_highest) return std::numeric_limits<I>::max();
  return static_cast<I>(y);
}

template <class To, class From>
To bits_as(From x) {
  static_assert(sizeof(To) == sizeof(From), "same size");
  To y;
  std::memcpy(&y, &x, sizeof y);
  return y;
}

}  // namespace scanlab::sim::detail

// ---- Integer intrinsics ---------------------------------------------------------------------
// 24-bit multiplies: the low 32 bits of the product of the operands' low 24 bits (signed
// operands sign-extended from bit 23).
inline int __mul24(int x, int y) {
  const auto low24 = [](int v) { return static_cast<std::int32_t>(static_cast<std::uint32_t>(v) << 8) >> 8; };
  return static_cast<int>(static_cast<std::uint32_t>(static_cast<std::int64_t>(low24(x)) * low24(y)));
}
inline unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
// The high halves of full products.
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline long long __mul64hi(long long x, long long y) {
  return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}
// |x - y| + z, without overflow in the difference.
inline unsigned __sad(int x, int y, unsigned z) {
  const long long d = static_cast<long long>(x) - y;
  return static_cast<unsigned>(d < 0 ? -d : d) + z;
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
// Halving adds: (x + y) >> 1 and (x + y + 1) >> 1 on the full sum, without overflow.
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
inline unsigned __uhadd(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned __urhadd(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
// Byte n of the result is byte (s >> 4n) & 7 of the eight bytes y:x (x holds bytes 0-3).
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned result = 0;
  for (unsigned n = 0; n < 4; ++n) {
    const unsigned select = (s >> (4 * n)) & 7u;
    result |= static_cast<unsigned>((bytes >> (8 * select)) & 0xffu) << (8 * n);
  }
  return result;
}
// Funnel shifts of the 64-bit hi:lo: the high word after a left shift, the low word after a
// right shift; by shift & 31, or (the c forms) by min(shift, 32).
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  return static_cast<unsigned>((((static_cast<unsigned long long>(hi) << 32) | lo) << (shift & 31u)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
  return shift >= 32 ? lo : __funnelshift_l(lo, hi, shift);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  return static_cast<unsigned>((((static_cast<unsigned long long>(hi) << 32) | lo) >> (shift & 31u)));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
  return shift >= 32 ? hi : __funnelshift_r(lo, hi, shift);
}
// Four-way byte dot product plus an accumulator (sm_61).
inline int __dp4a(int a, int b, int c) {
  long long sum = c;
  for (int n = 0; n < 4; ++n) {
    sum += static_cast<long long>(static_cast<std::int8_t>(static_cast<unsigned>(a) >> (8 * n))) *
           static_cast<std::int8_t>(static_cast<unsigned>(b) >> (8 * n));
  }
  return static_cast<int>(static_cast<std::uint32_t>(sum));
}
inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) {
  unsigned sum = c;
  for (int n = 0; n < 4; ++n) sum += ((a >> (8 * n)) & 0xffu) * ((b >> (8 * n)) & 0xffu);
  return sum;
}
// The integer min/max of CUDA's math library.
inline unsigned umin(unsigned a, unsigned b) { return b < a ? b : a; }
inline unsigned umax(unsigned a, unsigned b) { return a < b ? b : a; }
inline long long llmin(long long a, long long b) { return b < a ? b : a; }
inline long long llmax(long long a, long long b) { return a < b ? b : a; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return b < a ? b : a; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a < b ? b : a; }

// ---- Floating-point intrinsics with a rounding mode -----------------------------------------
#define SCANLAB_SIM_ROUNDED(SUFFIX, MODE)                                                                  \
  inline float __fadd_##SUFFIX(float a, float b) { return scanlab::sim::detail::rounded_add(a, b, MODE); }  \
  inline float __fsub_##SUFFIX(float a, float b) { return scanlab::sim::detail::rounded_add(a, -b, MODE); } \
  inline float __fmul_##SUFFIX(float a, float b) { return scanlab::sim::detail::rounded_mul(a, b, MODE); }  \
  inline float __fdiv_##SUFFIX(float a, float b) { return scanlab::sim::detail::rounded_div(a, b, MODE); }  \
  inline float __frcp_##SUFFIX(float a) { return scanlab::sim::detail::rounded_div(1.0f, a, MODE); }        \
  inline float __fsqrt_##SUFFIX(float a) { return scanlab::sim::detail::rounded_sqrt(a, MODE); }            \
  inline float __fmaf_##SUFFIX(float a, float b, float c) {                                                 \
    return scanlab::sim::detail::rounded_fma(a, b, c, MODE);                                                \
  }                                                                                                         \
  inline double __dadd_##SUFFIX(double a, double b) { return scanlab::sim::detail::rounded_add(a, b, MODE); }  \
  inline double __dsub_##SUFFIX(double a, double b) { return scanlab::sim::detail::rounded_add(a, -b, MODE); } \
  inline double __dmul_##SUFFIX(double a, double b) { return scanlab::sim::detail::rounded_mul(a, b, MODE); }  \
  inline double __ddiv_##SUFFIX(double a, double b) { return scanlab::sim::detail::rounded_div(a, b, MODE); }  \
  inline double __drcp_##SUFFIX(double a) { return scanlab::sim::detail::rounded_div(1.0, a, MODE); }          \
  inline double __dsqrt_##SUFFIX(double a) { return scanlab::sim::detail::rounded_sqrt(a, MODE); }             \
  inline double __fma_##SUFFIX(double a, double b, double c) {                                                 \
    return scanlab::sim::detail::rounded_fma(a, b, c, MODE);                                                   \
  }
SCANLAB_SIM_ROUNDED(rn, scanlab::sim::detail::Rounding::nearest)
SCANLAB_SIM_ROUNDED(rz, scanlab::sim::detail::Rounding::toward_zero)
SCANLAB_SIM_ROUNDED(ru, scanlab::sim::detail::Rounding::up)
SCANLAB_SIM_ROUNDED(rd, scanlab::sim::detail::Rounding::down)
#undef SCANLAB_SIM_ROUNDED
inline float __frsqrt_rn(float a) { return __frcp_rn(__fsqrt_rn(a)); }

// Clamped to [0, 1]; NaN gives 0.
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

// ---- Conversions ----------------------------------------------------------------------------
#define SCANLAB_SIM_CONVERSIONS(SUFFIX, MODE)                                                                 \
  inline int __float2int_##SUFFIX(float x) { return scanlab::sim::detail::convert_saturating<int>(x, MODE); } \
  inline unsigned __float2uint_##SUFFIX(float x) {                                                             \
    return scanlab::sim::detail::convert_saturating<unsigned>(x, MODE);                                        \
  }                                                                                                            \
  inline long long __float2ll_##SUFFIX(float x) {                                                              \
    return scanlab::sim::detail::convert_saturating<long long>(x, MODE);                                       \
  }                                                                                                            \
  inline unsigned long long __float2ull_##SUFFIX(float x) {                                                    \
    return scanlab::sim::detail::convert_saturating<unsigned long long>(x, MODE);                              \
  }                                                                                                            \
  inline int __double2int_##SUFFIX(double x) { return scanlab::sim::detail::convert_saturating<int>(x, MODE); } \
  inline unsigned __double2uint_##SUFFIX(double x) {                                                           \
    return scanlab::sim::detail::convert_saturating<unsigned>(x, MODE);                                        \
  }                                                                                                            \
  inline long long __double2ll_##SUFFIX(double x) {                                                            \
    return scanlab::sim::detail::convert_saturating<long long>(x, MODE);                                       \
  }                                                                                                            \
  inline unsigned long long __double2ull_##SUFFIX(double x) {                                                  \
    return scanlab::sim::detail::convert_saturating<unsigned long long>(x, MODE);                              \
  }                                                                                                            \
  inline float __double2float_##SUFFIX(double x) { return scanlab::sim::detail::rounded_to_float(x, MODE); }   \
  inline float __int2float_##SUFFIX(int x) {                                                                   \
    return scanlab::sim::detail::rounded_to_float(static_cast<long long>(x), MODE);                            \
  }                                                                                                            \
  inline float __uint2float_##SUFFIX(unsigned x) {                                                             \
    return scanlab::sim::detail::rounded_to_float(static_cast<unsigned long long>(x), MODE);                   \
  }                                                                                                            \
  inline float __ll2float_##SUFFIX(long long x) { return scanlab::sim::detail::rounded_to_float(x, MODE); }    \
  inline float __ull2float_##SUFFIX(unsigned long long x) {                                                    \
    return scanlab::sim::detail::rounded_to_float(x, MODE);                                                    \
  }                                                                                                            \
  inline double __ll2double_##SUFFIX(long long x) { return scanlab::sim::detail::rounded_to_double(x, MODE); } \
  inline double __ull2double_##SUFFIX(unsigned long long x) {                                                  \
    return scanlab::sim::detail::rounded_to_double(x, MODE);                                                   \
  }
SCANLAB_SIM_CONVERSIONS(rn, scanlab::sim::detail::Rounding::nearest)
SCANLAB_SIM_CONVERSIONS(rz, scanlab::sim::detail::Rounding::toward_zero)
SCANLAB_SIM_CONVERSIONS(ru, scanlab::sim::detail::Rounding::up)
SCANLAB_SIM_CONVERSIONS(rd, scanlab::sim::detail::Rounding::down)
#undef SCANLAB_SIM_CONVERSIONS
// Exact conversions, with the single rounding-mode name CUDA gives them.
inline double __int2double_rn(int x) { return x; }
inline double __uint2double_rn(unsigned x) { return x; }
// The two 32-bit halves of a double's bits, and back.
inline int __double2hiint(double x) {
  return static_cast<int>(scanlab::sim::detail::bits_as<unsigned long long>(x) >> 32);
}
inline int __double2loint(double x) {
  return static_cast<int>(static_cast<std::uint32_t>(scanlab::sim::detail::bits_as<unsigned long long>(x)));
}
inline double __hiloint2double(int hi, int lo) {
  return scanlab::sim::detail::bits_as<double>((static_cast<unsigned long long>(static_cast<std::uint32_t>(hi)) << 32) |
                                               static_cast<std::uint32_t>(lo));
}

// ---- Fast approximations: the accurate value, within the GPU's bound --------------------------
inline float __fdividef(float x, float y) { return x / y; }
inline float fdividef(float x, float y) { return x / y; }
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline void __sincosf(float x, float* s, float* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}

// ---- Math functions of CUDA's library that the C++ library lacks ------------------------------
// A template, as min and max are (cuda.hpp): helper_math.h defines its own host rsqrtf.
template <class = void>
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline double rcbrt(double x) { return 1.0 / std::cbrt(x); }
