// The kernels of the device function test: one thread evaluates every case and stores each
// result's bits, so that the host compares them exactly.
#include <cstring>
#include <type_traits>

#include "device_function_cases.hpp"
#include "device_function_kernels.hpp"

namespace {

template <class T>
__host__ __device__ std::uint64_t bits_of(T value) {
  static_assert(sizeof(T) <= sizeof(std::uint64_t), "a scalar result");
  if constexpr (std::is_integral_v<T>) {
    return static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(value));
  } else if constexpr (sizeof(T) == sizeof(std::uint32_t)) {
    std::uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
  } else {
    std::uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
  }
}

__device__ float sine_of_sincosf(float x) {
  float s, c;
  __sincosf(x, &s, &c);
  return s;
}
__device__ float cosine_of_sincosf(float x) {
  float s, c;
  __sincosf(x, &s, &c);
  return c;
}

#define SCANLAB_COUNT(name, ...) +1
constexpr int kExactCases = 0 SCANLAB_INTEGER_INTRINSIC_CASES(SCANLAB_COUNT) SCANLAB_ROUNDED_ARITHMETIC_CASES(
    SCANLAB_COUNT) SCANLAB_CONVERSION_CASES(SCANLAB_COUNT);
constexpr int kApproximateCases = 0 SCANLAB_APPROXIMATION_CASES(SCANLAB_COUNT);
#undef SCANLAB_COUNT

__global__ void evaluate_exact(std::uint64_t* out) {
  int i = 0;
#define SCANLAB_EVALUATE(name, expression, expected)                                            \
  static_assert(std::is_same_v<decltype(expression), decltype(expected)>, #name ": the type"); \
  out[i++] = bits_of(expression);
  SCANLAB_INTEGER_INTRINSIC_CASES(SCANLAB_EVALUATE)
  SCANLAB_ROUNDED_ARITHMETIC_CASES(SCANLAB_EVALUATE)
  SCANLAB_CONVERSION_CASES(SCANLAB_EVALUATE)
#undef SCANLAB_EVALUATE
}

__global__ void evaluate_approximate(double* out) {
  int i = 0;
#define SCANLAB_EVALUATE(name, expression, expected, tolerance) out[i++] = static_cast<double>(expression);
  SCANLAB_APPROXIMATION_CASES(SCANLAB_EVALUATE)
#undef SCANLAB_EVALUATE
}

// Lane i holds i - 8 (so min and max differ from the lane number) and 1 << (i % 8); the
// reductions run once over the whole warp and once over its odd lanes.
constexpr unsigned kWholeWarp = 0xffffffffu;
constexpr unsigned kOddLanes = 0xaaaaaaaau;
constexpr int kWarpReductions = 16;

__global__ void evaluate_warp_reductions(std::uint64_t* out) {
  const int lane = static_cast<int>(threadIdx.x);
  const int value = lane - 8;
  const unsigned bits = 1u << (lane % 8);
  std::uint64_t results[kWarpReductions / 2];
  for (int odd = 0; odd < 2; ++odd) {
    if (odd && lane % 2 == 0) break;
    const unsigned mask = odd ? kOddLanes : kWholeWarp;
    results[0] = bits_of(__reduce_add_sync(mask, value));
    results[1] = bits_of(__reduce_add_sync(mask, static_cast<unsigned>(lane)));
    results[2] = bits_of(__reduce_min_sync(mask, value));
    results[3] = bits_of(__reduce_max_sync(mask, value));
    results[4] = bits_of(__reduce_min_sync(mask, static_cast<unsigned>(value)));
    results[5] = bits_of(__reduce_and_sync(mask, ~bits));
    results[6] = bits_of(__reduce_or_sync(mask, bits));
    results[7] = bits_of(__reduce_xor_sync(mask, static_cast<unsigned>(lane)));
    if (lane == 31) {
      for (int r = 0; r < kWarpReductions / 2; ++r) out[odd * (kWarpReductions / 2) + r] = results[r];
    }
  }
}

template <class T>
std::vector<T> run_kernel(void (*kernel)(T*), int count, int threads = 1) {
  T* device = nullptr;
  cudaMalloc(&device, count * sizeof(T));
  kernel<<<1, threads>>>(device);
  std::vector<T> host(count);
  cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(device);
  return host;
}

}  // namespace

std::vector<ExactCase> evaluate_exact_cases() {
  const std::vector<std::uint64_t> actual = run_kernel(evaluate_exact, kExactCases);
  std::vector<ExactCase> cases;
#define SCANLAB_COLLECT(name, expression, expected) \
  cases.push_back({#name, bits_of(expected), actual[cases.size()]});
  SCANLAB_INTEGER_INTRINSIC_CASES(SCANLAB_COLLECT)
  SCANLAB_ROUNDED_ARITHMETIC_CASES(SCANLAB_COLLECT)
  SCANLAB_CONVERSION_CASES(SCANLAB_COLLECT)
#undef SCANLAB_COLLECT
  return cases;
}

std::vector<ApproximateCase> evaluate_approximate_cases() {
  const std::vector<double> actual = run_kernel(evaluate_approximate, kApproximateCases);
  std::vector<ApproximateCase> cases;
#define SCANLAB_COLLECT(name, expression, expected, tolerance) \
  cases.push_back({#name, expected, actual[cases.size()], tolerance});
  SCANLAB_APPROXIMATION_CASES(SCANLAB_COLLECT)
#undef SCANLAB_COLLECT
  return cases;
}

std::vector<ExactCase> evaluate_warp_reduction_cases() {
  const std::vector<std::uint64_t> actual = run_kernel(evaluate_warp_reductions, kWarpReductions, 32);
  // Whole warp: values -8..23 (sum 240, min -8, max 23; as unsigned the least is 0), lanes
  // 0..31 (sum 496, xor 0), every bit of the low byte set in some lane and clear in another.
  // Odd lanes: values -7..23 step 2 (sum 128, min -7, max 23; as unsigned 1), lanes 1..31 (sum
  // 256, xor 1^3^...^31 = 0), bits 2, 8, 32 and 128.
  const std::uint64_t expected[kWarpReductions] = {
      240, 496, bits_of(-8), 23, 0, 0xffffff00u, 0xffu, 0,
      128, 256, bits_of(-7), 23, 1, 0xffffff55u, 0xaau, 0};
  const char* names[kWarpReductions / 2] = {"reduce_add_int", "reduce_add_unsigned", "reduce_min_int",
                                            "reduce_max_int", "reduce_min_unsigned", "reduce_and",
                                            "reduce_or", "reduce_xor"};
  std::vector<ExactCase> cases;
  for (int i = 0; i < kWarpReductions; ++i) {
    cases.push_back({std::string(names[i % (kWarpReductions / 2)]) + (i < kWarpReductions / 2 ? "" : "_odd_lanes"),
                     expected[i], actual[i]});
  }
  return cases;
}
