// A number a check measured (operator applications, bank conflicts, memory transactions),
// compared with what the lab's algorithm needs, as a GoogleTest AssertionResult that says both
// numbers in words:
//
//   EXPECT_TRUE(measured_against("operator applications for 2 sections of 32", counter.count(),
//                                Needed::exactly, expected));
//   -> "operator applications for 2 sections of 32: 126, where exactly 62 are expected"
//
// GoogleTest's comparison macros (EXPECT_EQ, EXPECT_LE) describe a failure by the expressions'
// source text ("counter.count() Which is: 126"), which is the test's wording, not the student's;
// the grader shows that text only with --verbose, and takes the words of an AssertionResult
// instead. A hint streamed onto the result (`<< ": pad the section ..."`) follows the numbers.
// A comparison that is not a measured number (two lane masks) says its words the same way:
// EXPECT_TRUE(::testing::AssertionResult(a == b) << "words").
#pragma once

#include <gtest/gtest.h>

#include <string_view>

namespace scanlab::grading {

enum class Needed { exactly, at_most, at_least };

template <class Measured, class Bound>
::testing::AssertionResult measured_against(std::string_view what, Measured measured, Needed needed, Bound bound) {
    const bool holds = needed == Needed::exactly   ? measured == bound
                       : needed == Needed::at_most ? measured <= bound
                                                   : measured >= bound;
    if (holds) return ::testing::AssertionSuccess();
    const char* how = needed == Needed::exactly ? "exactly" : needed == Needed::at_most ? "at most" : "at least";
    const char* judged = needed == Needed::exactly ? "expected" : needed == Needed::at_most ? "allowed" : "needed";
    return ::testing::AssertionFailure() << what << ": " << measured << ", where " << how << " " << bound << " "
                                         << (bound == 1 ? "is " : "are ") << judged;
}

}  // namespace scanlab::grading
