// Evaluates every case of device_function_cases.hpp in a kernel: on a GPU with nvcc, or on the
// simulator, the same source.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct ExactCase {
  std::string name;
  std::uint64_t expected_bits;  // the value's object representation, zero-extended
  std::uint64_t actual_bits;
};

struct ApproximateCase {
  std::string name;
  double expected;
  double actual;
  double relative_tolerance;
};

std::vector<ExactCase> evaluate_exact_cases();
std::vector<ApproximateCase> evaluate_approximate_cases();
std::vector<ExactCase> evaluate_warp_reduction_cases();  // a warp's __reduce_*_sync
