#include "exclusive_scan_api.hpp"
#include "measured_against.hpp"

namespace {

using namespace lab03;

TEST(Lab03OperationCount, ExclusiveScan) { expect_section_scan_applications(kExclusiveScan, kKoggeStoneExclusive); }

// Shifting applies the operator nowhere; shifting back applies it once per element.
void expect_conversion_applications(Conversion conversion) {
    for (const std::size_t n : conversion_sizes()) {
        SCOPED_TRACE(describe_conversion(n));
        ConversionRun<Int32Plus> run(conversion, n);
        OperationCounter counter(Space::device);
        ASSERT_TRUE(run.call(counter.wrap(scanlab::Plus<int>{})));
        EXPECT_TRUE(run.output_matches());
        const unsigned long long expected = conversion == Conversion::inclusive_to_exclusive ? 0 : n;
        EXPECT_TRUE(measured_against("operator applications", counter.count(), Needed::exactly, expected)
                    << (expected == 0 ? ": shifting moves elements and combines none" : ": shifting back combines each element once"));
    }
}

TEST(Lab03OperationCount, InclusiveToExclusive) { expect_conversion_applications(Conversion::inclusive_to_exclusive); }
TEST(Lab03OperationCount, ExclusiveToInclusive) { expect_conversion_applications(Conversion::exclusive_to_inclusive); }

}  // namespace
