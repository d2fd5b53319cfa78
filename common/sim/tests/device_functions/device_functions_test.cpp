// CUDA's device function table on the backend this test is built for: every integer
// intrinsic, rounded operation and conversion gives CUDA's exact result, and every fast
// approximation lies within its tolerance. Built with nvcc the same test checks the
// expectations against a real GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "device_function_kernels.hpp"

namespace {

std::string hex(std::uint64_t bits) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(bits));
  return text;
}

TEST(DeviceFunctions, ExactResultsAreCudas) {
  const std::vector<ExactCase> cases = evaluate_exact_cases();
  ASSERT_GT(cases.size(), 100u);
  for (const ExactCase& c : cases) {
    EXPECT_EQ(hex(c.actual_bits), hex(c.expected_bits)) << c.name;
  }
}

TEST(DeviceFunctions, WarpReductionsCombineTheMasksLanes) {
  const std::vector<ExactCase> cases = evaluate_warp_reduction_cases();
  ASSERT_EQ(cases.size(), 16u);
  for (const ExactCase& c : cases) {
    EXPECT_EQ(hex(c.actual_bits), hex(c.expected_bits)) << c.name;
  }
}

TEST(DeviceFunctions, ApproximationsAreWithinTheirTolerance) {
  const std::vector<ApproximateCase> cases = evaluate_approximate_cases();
  ASSERT_GT(cases.size(), 10u);
  for (const ApproximateCase& c : cases) {
    EXPECT_LE(std::fabs(c.actual - c.expected), c.relative_tolerance * std::fabs(c.expected))
        << c.name << ": " << c.actual << " against " << c.expected;
  }
}

}  // namespace
