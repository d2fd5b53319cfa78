// The lab suites' comparison helper: what a student reads when an output is wrong.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "fill_pattern.hpp"
#include "scan_compare.hpp"

namespace {

using scanlab::grading::kFillByte;
using scanlab::grading::matches_reference;

template <class T>
T fill_value() {
    T value;
    std::memset(&value, kFillByte, sizeof value);
    return value;
}

TEST(ScanCompare, EqualOutputsMatch) {
    EXPECT_TRUE(matches_reference<int>({1, 2, 3}, {1, 2, 3}));
    EXPECT_TRUE(matches_reference<double>({1.0, 2.0}, {1.0, 2.5}, {0.0, 0.5}));
}

TEST(ScanCompare, MismatchShowsIndexExpectedActual) {
    const auto result = matches_reference<int>({1, 2, 3}, {1, 7, 3});
    ASSERT_FALSE(result);
    EXPECT_NE(std::string(result.message()).find("index 1: expected 2, actual 7 (exact)"), std::string::npos)
        << result.message();
    EXPECT_EQ(std::string(result.message()).find("never written"), std::string::npos) << result.message();
}

TEST(ScanCompare, UnwrittenElementsAreNamedAsSuch) {
    const auto result = matches_reference<int>({1, 2, 3, 4}, {1, 2, fill_value<int>(), fill_value<int>()});
    ASSERT_FALSE(result);
    const std::string message = result.message();
    EXPECT_NE(message.find("output element 2 was never written (expected 3)"), std::string::npos) << message;
    EXPECT_NE(message.find("2 of 4 elements differ, 2 of them never written"), std::string::npos) << message;
    EXPECT_NE(message.find("0xa5"), std::string::npos) << message;
}

TEST(ScanCompare, UnwrittenFloatsAreNamedWithABound) {
    const auto result = matches_reference<float>({1.0f, 2.0f}, {1.0f, fill_value<float>()}, {0.1f, 0.1f});
    ASSERT_FALSE(result);
    EXPECT_NE(std::string(result.message()).find("output element 1 was never written"), std::string::npos)
        << result.message();
}

}  // namespace
