#include "exclusive_scan_api.hpp"

namespace {

using namespace lab03;

TEST(Lab03InputUnmodified, ExclusiveScan) { expect_section_scan_leaves_input(kExclusiveScan, kKoggeStoneExclusive); }

void expect_conversion_leaves_inputs(Conversion conversion) {
    for (const std::size_t n : conversion_sizes()) {
        SCOPED_TRACE(describe_conversion(n));
        ConversionRun<AffineCompose> run(conversion, n);
        ASSERT_TRUE(run.call(scanlab::ComposeAffine<unsigned>{}));
        EXPECT_TRUE(run.inputs_unmodified());
        EXPECT_TRUE(run.output_written());
    }
}

TEST(Lab03InputUnmodified, InclusiveToExclusive) { expect_conversion_leaves_inputs(Conversion::inclusive_to_exclusive); }
TEST(Lab03InputUnmodified, ExclusiveToInclusive) { expect_conversion_leaves_inputs(Conversion::exclusive_to_inclusive); }

}  // namespace
