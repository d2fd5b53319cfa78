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

template <class T>
std::vector<T> run_one_thread(void (*kernel)(T*), int count) {
  T* device = nullptr;
  cudaMalloc(&device, count * sizeof(T));
  kernel<<<1, 1>>>(device);
  std::vector<T> host(count);
  cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(device);
  return host;
}

}  // namespace

std::vector<ExactCase> evaluate_exact_cases() {
  const std::vector<std::uint64_t> actual = run_one_thread(evaluate_exact, kExactCases);
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
  const std::vector<double> actual = run_one_thread(evaluate_approximate, kApproximateCases);
  std::vector<ApproximateCase> cases;
#define SCANLAB_COLLECT(name, expression, expected, tolerance) \
  cases.push_back({#name, expected, actual[cases.size()], tolerance});
  SCANLAB_APPROXIMATION_CASES(SCANLAB_COLLECT)
#undef SCANLAB_COLLECT
  return cases;
}
