// Checks of how a kernel would use a GPU, measured by the simulator's counters
// (scanlab/sim/counters.hpp): divergent warps, shared-memory bank conflicts, global-memory
// sectors per warp-wide access. Each check also records what it measured ("measured"
// property), which the grader shows beside pass or fail.
//
// On a GPU there is nothing to count here: the grader marks these checks as measured by the
// simulator only, and the lab README says which Nsight Compute metrics give the same numbers.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "measured_against.hpp"

#ifdef SCANLAB_SIM
#include <scanlab/sim/counters.hpp>
#include <scanlab/sim/diagnostics.hpp>
#endif

namespace scanlab::grading {

#ifdef SCANLAB_SIM
using Counters = scanlab::sim::Counters;

// The counters of what `work` launches.
template <class Work>
Counters count_while(Work&& work) {
    scanlab::sim::set_counting(true);
    scanlab::sim::take_counters();
    work();
    Counters counted = scanlab::sim::take_counters();
    scanlab::sim::set_counting(false);
    return counted;
}
#endif

// "1 234" rather than "1234": these numbers are read by people.
inline std::string with_spaces(unsigned long long value) {
    std::string digits = std::to_string(value);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), " ");
    return digits;
}

// Records the line the grader shows beside the check, and returns it.
inline std::string record_measurement(const std::string& text) {
    ::testing::Test::RecordProperty("measured", text);
    return text;
}

}  // namespace scanlab::grading

// The counters exist in the simulator only.
#ifdef SCANLAB_SIM
#define SCANLAB_REQUIRE_COUNTERS() (void)0
#else
#define SCANLAB_REQUIRE_COUNTERS() GTEST_SKIP() << "counted by the simulator only (--backend sim)"
#endif
