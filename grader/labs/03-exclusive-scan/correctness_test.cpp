#include "exclusive_scan_api.hpp"

namespace {

using namespace lab03;

template <class Case>
class Lab03Correctness : public ::testing::Test {};
TYPED_TEST_SUITE(Lab03Correctness, ScanCases, ScanCaseNames);

TYPED_TEST(Lab03Correctness, ExclusiveScan) {
    expect_section_scan_correct<TypeParam>(kExclusiveScan, kKoggeStoneExclusive);
}

template <class Case>
void expect_conversion_correct(Conversion conversion) {
    for (const std::size_t n : conversion_sizes()) {
        SCOPED_TRACE(describe_conversion(n));
        ConversionRun<Case> run(conversion, n);
        ASSERT_TRUE(run.call(typename Case::Op{}));
        EXPECT_TRUE(run.output_matches());
    }
}

// The kernel on a grid of fewer threads than elements: each thread writes several.
template <class Case>
void expect_conversion_kernel_covers_n(Conversion conversion) {
    for (const std::size_t n : few_threads_sizes()) {
        SCOPED_TRACE(describe_few_threads(n));
        ConversionRun<Case> run(conversion, n, true);
        ASSERT_TRUE(run.call(typename Case::Op{}));
        EXPECT_TRUE(run.output_matches());
    }
}

TYPED_TEST(Lab03Correctness, InclusiveToExclusive) {
    expect_conversion_correct<TypeParam>(Conversion::inclusive_to_exclusive);
}

TYPED_TEST(Lab03Correctness, InclusiveToExclusiveFewerThreadsThanElements) {
    expect_conversion_kernel_covers_n<TypeParam>(Conversion::inclusive_to_exclusive);
}

TYPED_TEST(Lab03Correctness, ExclusiveToInclusive) {
    expect_conversion_correct<TypeParam>(Conversion::exclusive_to_inclusive);
}

TYPED_TEST(Lab03Correctness, ExclusiveToInclusiveFewerThreadsThanElements) {
    expect_conversion_kernel_covers_n<TypeParam>(Conversion::exclusive_to_inclusive);
}

}  // namespace
