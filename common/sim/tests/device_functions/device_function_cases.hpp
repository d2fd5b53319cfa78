// The cases of the device function test: X(name, expression evaluated on the device, expected
// value, exact on every GPU). The expected values follow from CUDA's definitions and were
// worked out by hand (floating-point ones as hex literals, so that each is one exact value);
// the kernel checks at compile time that each expression has its expected value's type, which
// on nvcc is the real CUDA function's return type.
#pragma once

#define SCANLAB_NAN_F __int_as_float(0x7fc00000)

#define SCANLAB_INTEGER_INTRINSIC_CASES(X)                                             \
  X(umul24_ignores_high_bytes, __umul24(0x01000003u, 5u), 15u)                          \
  X(umul24_keeps_the_low_32_bits, __umul24(0xffffffu, 0xffffffu), 0xfe000001u)          \
  X(mul24_of_negative, __mul24(-3, 5), -15)                                             \
  X(mul24_sign_extends_bit_23, __mul24(0x00800000, 2), -16777216)                       \
  X(mul24_ignores_high_byte, __mul24(0x7f000002, 3), 6)                                 \
  X(mulhi_of_negative, __mulhi(-1, 1), -1)                                              \
  X(mulhi, __mulhi(0x40000000, 8), 2)                                                   \
  X(umulhi, __umulhi(0xffffffffu, 2u), 1u)                                              \
  X(umulhi_of_largest, __umulhi(0xffffffffu, 0xffffffffu), 0xfffffffeu)                 \
  X(mul64hi_of_negative, __mul64hi(-1LL, 1LL), -1LL)                                    \
  X(umul64hi, __umul64hi(1ull << 63, 4ull), 2ull)                                       \
  X(sad, __sad(3, 10, 5u), 12u)                                                         \
  X(sad_of_extremes, __sad(-2147483647 - 1, 2147483647, 0u), 4294967295u)               \
  X(usad, __usad(10u, 3u, 1u), 8u)                                                      \
  X(hadd_without_overflow, __hadd(2147483647, 1), 1073741824)                           \
  X(hadd_rounds_down, __hadd(-3, 0), -2)                                                \
  X(rhadd_rounds_up, __rhadd(1, 2), 2)                                                  \
  X(rhadd_of_negative, __rhadd(-3, 0), -1)                                              \
  X(uhadd_without_overflow, __uhadd(0xffffffffu, 1u), 0x80000000u)                      \
  X(urhadd_without_overflow, __urhadd(0xffffffffu, 0xfffffffeu), 0xffffffffu)           \
  X(byte_perm_odd_bytes, __byte_perm(0x33221100u, 0x77665544u, 0x7531u), 0x77553311u)   \
  X(byte_perm_reverse, __byte_perm(0x33221100u, 0x77665544u, 0x0123u), 0x00112233u)     \
  X(byte_perm_ignores_selector_msb, __byte_perm(0x33221100u, 0x77665544u, 0xccccu), 0x44444444u) \
  X(funnelshift_l, __funnelshift_l(0x89abcdefu, 0x01234567u, 8u), 0x23456789u)          \
  X(funnelshift_l_wraps_shift, __funnelshift_l(0x89abcdefu, 0x01234567u, 40u), 0x23456789u) \
  X(funnelshift_lc_clamps_shift, __funnelshift_lc(0x89abcdefu, 0x01234567u, 40u), 0x89abcdefu) \
  X(funnelshift_r, __funnelshift_r(0x89abcdefu, 0x01234567u, 8u), 0x6789abcdu)          \
  X(funnelshift_rc_clamps_shift, __funnelshift_rc(0x89abcdefu, 0x01234567u, 40u), 0x01234567u) \
  X(dp4a, __dp4a(0x01020304, 0x01010101, 10), 20)                                       \
  X(dp4a_signed_bytes, __dp4a(-1, 0x02020202, 0), -8)                                   \
  X(dp4a_unsigned_bytes, __dp4a(0xffffffffu, 0x02020202u, 0u), 2040u)                   \
  X(umin, umin(3u, 5u), 3u)                                                             \
  X(umax, umax(3u, 5u), 5u)                                                             \
  X(llmin, llmin(-5LL, 2LL), -5LL)                                                      \
  X(llmax, llmax(-5LL, 2LL), 2LL)                                                       \
  X(ullmin, ullmin(1ull << 40, 3ull), 3ull)                                             \
  X(ullmax, ullmax(1ull << 40, 3ull), 1ull << 40)

#define SCANLAB_ROUNDED_ARITHMETIC_CASES(X)                                                  \
  X(fadd_rn, __fadd_rn(1.0f, 1e-8f), 1.0f)                                                    \
  X(fadd_ru, __fadd_ru(1.0f, 1e-8f), 0x1.000002p+0f)                                          \
  X(fadd_rd_of_negative, __fadd_rd(-1.0f, -1e-8f), -0x1.000002p+0f)                           \
  X(fadd_rz_of_negative, __fadd_rz(-1.0f, -1e-8f), -1.0f)                                     \
  X(fsub_ru, __fsub_ru(1.0f, 1e-8f), 1.0f)                                                    \
  X(fsub_rd, __fsub_rd(1.0f, 1e-8f), 0x1.fffffep-1f)                                          \
  X(fmul_rn, __fmul_rn(0x1.000002p+0f, 0x1.000002p+0f), 0x1.000004p+0f)                       \
  X(fmul_ru, __fmul_ru(0x1.000002p+0f, 0x1.000002p+0f), 0x1.000006p+0f)                       \
  X(fmaf_rn_rounds_once, __fmaf_rn(0x1.000002p+0f, 0x1.000002p+0f, -0x1.000004p+0f), 0x1p-46f) \
  X(fmaf_ru, __fmaf_ru(1.0f, 1.0f, 1e-8f), 0x1.000002p+0f)                                    \
  X(fmaf_rz, __fmaf_rz(1.0f, 1.0f, 1e-8f), 1.0f)                                              \
  X(fdiv_rn, __fdiv_rn(1.0f, 3.0f), 0x1.555556p-2f)                                           \
  X(fdiv_rz, __fdiv_rz(1.0f, 3.0f), 0x1.555554p-2f)                                           \
  X(frcp_rd, __frcp_rd(3.0f), 0x1.555554p-2f)                                                 \
  X(frcp_ru, __frcp_ru(3.0f), 0x1.555556p-2f)                                                 \
  X(fsqrt_rd, __fsqrt_rd(2.0f), 0x1.6a09e6p+0f)                                               \
  X(fsqrt_ru, __fsqrt_ru(2.0f), 0x1.6a09e8p+0f)                                               \
  X(frsqrt_rn, __frsqrt_rn(4.0f), 0.5f)                                                       \
  X(saturatef_below, __saturatef(-0.5f), 0.0f)                                                \
  X(saturatef_inside, __saturatef(0.25f), 0.25f)                                              \
  X(saturatef_above, __saturatef(3.0f), 1.0f)                                                 \
  X(saturatef_nan, __saturatef(SCANLAB_NAN_F), 0.0f)                                          \
  X(dadd_rn, __dadd_rn(1.0, 1e-20), 1.0)                                                      \
  X(dadd_ru, __dadd_ru(1.0, 1e-20), 0x1.0000000000001p+0)                                     \
  X(dsub_rd, __dsub_rd(1.0, 1e-20), 0x1.fffffffffffffp-1)                                     \
  X(dmul_rn, __dmul_rn(0x1.0000000000001p+0, 0x1.0000000000001p+0), 0x1.0000000000002p+0)     \
  X(dmul_ru, __dmul_ru(0x1.0000000000001p+0, 0x1.0000000000001p+0), 0x1.0000000000003p+0)     \
  X(ddiv_rd, __ddiv_rd(1.0, 3.0), 0x1.5555555555555p-2)                                       \
  X(ddiv_ru, __ddiv_ru(1.0, 3.0), 0x1.5555555555556p-2)                                       \
  X(drcp_ru, __drcp_ru(3.0), 0x1.5555555555556p-2)                                            \
  X(dsqrt_rd, __dsqrt_rd(2.0), 0x1.6a09e667f3bccp+0)                                          \
  X(dsqrt_ru, __dsqrt_ru(2.0), 0x1.6a09e667f3bcdp+0)                                          \
  X(fma_rn_rounds_once, __fma_rn(0x1.0000000000001p+0, 0x1.0000000000001p+0, -0x1.0000000000002p+0), 0x1p-104) \
  X(fma_rz, __fma_rz(1.0, 1.0, 1e-20), 1.0)                                                   \
  X(fma_ru, __fma_ru(1.0, 1.0, 1e-20), 0x1.0000000000001p+0)

#define SCANLAB_CONVERSION_CASES(X)                                                            \
  X(float2int_rn_ties_to_even, __float2int_rn(2.5f), 2)                                         \
  X(float2int_rn_ties_to_even_up, __float2int_rn(3.5f), 4)                                      \
  X(float2int_rn_of_negative_tie, __float2int_rn(-2.5f), -2)                                    \
  X(float2int_rz, __float2int_rz(-2.7f), -2)                                                    \
  X(float2int_ru, __float2int_ru(2.1f), 3)                                                      \
  X(float2int_rd, __float2int_rd(-2.1f), -3)                                                    \
  X(float2int_saturates_high, __float2int_rn(3e9f), 2147483647)                                 \
  X(float2int_saturates_low, __float2int_rn(-3e9f), -2147483647 - 1)                            \
  X(float2int_of_nan, __float2int_rz(SCANLAB_NAN_F), 0)                                         \
  X(float2uint_of_negative, __float2uint_rn(-5.0f), 0u)                                         \
  X(float2uint_rd, __float2uint_rd(4e9f), 4000000000u)                                          \
  X(float2uint_saturates, __float2uint_ru(5e9f), 4294967295u)                                   \
  X(float2ll_rz, __float2ll_rz(1e12f), 999999995904LL)                                          \
  X(float2ull_of_negative, __float2ull_rn(-1.0f), 0ull)                                         \
  X(double2int_rn_of_negative_half, __double2int_rn(-0.5), 0)                                   \
  X(double2ll_ru, __double2ll_ru(1.5), 2LL)                                                     \
  X(double2ll_saturates, __double2ll_rn(1e19), 9223372036854775807LL)                           \
  X(double2uint_rz, __double2uint_rz(4294967295.9), 4294967295u)                                \
  X(double2ull_rd, __double2ull_rd(1e19), 10000000000000000000ull)                              \
  X(int2float_rn_ties_to_even, __int2float_rn(16777217), 16777216.0f)                           \
  X(int2float_ru, __int2float_ru(16777217), 16777218.0f)                                        \
  X(int2float_rz_of_negative, __int2float_rz(-16777217), -16777216.0f)                          \
  X(int2float_rd_of_negative, __int2float_rd(-16777217), -16777218.0f)                          \
  X(uint2float_rd, __uint2float_rd(4294967295u), 4294967040.0f)                                 \
  X(uint2float_rn, __uint2float_rn(4294967295u), 4294967296.0f)                                 \
  X(ll2float_rz, __ll2float_rz((1LL << 40) + 1), 1099511627776.0f)                              \
  X(ull2float_ru, __ull2float_ru((1ull << 40) + 1), 1099511758848.0f)                           \
  X(ll2double_rz, __ll2double_rz((1LL << 53) + 1), 9007199254740992.0)                          \
  X(ll2double_ru, __ll2double_ru((1LL << 53) + 1), 9007199254740994.0)                          \
  X(ull2double_rd, __ull2double_rd(~0ull), 18446744073709549568.0)                              \
  X(int2double_rn, __int2double_rn(-7), -7.0)                                                   \
  X(uint2double_rn, __uint2double_rn(4294967295u), 4294967295.0)                                \
  X(double2float_rd, __double2float_rd(1.0 + 0x1p-30), 1.0f)                                    \
  X(double2float_ru, __double2float_ru(1.0 + 0x1p-30), 0x1.000002p+0f)                          \
  X(double2float_rn_ties_to_even, __double2float_rn(1.0 + 0x1p-24), 1.0f)                       \
  X(double2float_rz_of_huge, __double2float_rz(-1e40), -0x1.fffffep+127f)                       \
  X(double2hiint, __double2hiint(1.0), 0x3ff00000)                                              \
  X(double2loint, __double2loint(0x1.0000000000001p+0), 1)                                      \
  X(hiloint2double, __hiloint2double(0x40000000, 0), 2.0)

// X(name, expression, expected, relative tolerance): the fast approximations, whose GPU
// results are within a few units in the last place of the exact value.
#define SCANLAB_APPROXIMATION_CASES(X)                                      \
  X(expf, __expf(1.0f), 2.718281828459045, 1e-5)                             \
  X(exp10f, __exp10f(2.0f), 100.0, 1e-5)                                     \
  X(logf, __logf(2.0f), 0.6931471805599453, 1e-5)                            \
  X(log2f, __log2f(8.0f), 3.0, 1e-5)                                         \
  X(log10f, __log10f(1000.0f), 3.0, 1e-5)                                    \
  X(sinf, __sinf(0.5f), 0.479425538604203, 1e-5)                             \
  X(cosf, __cosf(0.5f), 0.8775825618903728, 1e-5)                            \
  X(tanf, __tanf(0.5f), 0.5463024898437905, 1e-5)                            \
  X(powf, __powf(2.0f, 10.0f), 1024.0, 1e-5)                                 \
  X(fdividef, __fdividef(1.0f, 3.0f), 0.3333333333333333, 1e-6)              \
  X(plain_fdividef, fdividef(1.0f, 3.0f), 0.3333333333333333, 1e-6)          \
  X(rsqrtf, rsqrtf(4.0f), 0.5, 1e-6)                                         \
  X(rcbrtf, rcbrtf(8.0f), 0.5, 1e-6)                                         \
  X(rsqrt, rsqrt(4.0), 0.5, 1e-15)                                           \
  X(rcbrt, rcbrt(27.0), 0.3333333333333333, 1e-15)                           \
  X(sincosf_sine, sine_of_sincosf(0.5f), 0.479425538604203, 1e-5)            \
  X(sincosf_cosine, cosine_of_sincosf(0.5f), 0.8775825618903728, 1e-5)
