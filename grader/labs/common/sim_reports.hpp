// Race and synchronization checking for the race-freedom tests.
//
// On the simulator every error report (race, barrier divergence, out-of-bounds access, ...)
// since the last call fails the check and is printed in full. On a GPU there is nothing to
// read here: `grade --backend cuda` runs these same tests under compute-sanitizer racecheck
// and synccheck, which fail the process instead.
#pragma once

#include <gtest/gtest.h>

#ifdef SCANLAB_SIM
#include <scanlab/sim/diagnostics.hpp>
#endif

namespace scanlab::grading {

// Drops reports left by earlier work so that a check judges only what follows, and lets a
// place reported during earlier work (another check of the same program) be reported again.
inline void discard_simulator_reports() {
#ifdef SCANLAB_SIM
    scanlab::sim::take_reports();
    scanlab::sim::forget_reported_places();
#endif
}

inline ::testing::AssertionResult no_simulator_errors() {
#ifdef SCANLAB_SIM
    auto failure = ::testing::AssertionFailure();
    bool failed = false;
    for (const scanlab::sim::Report& report : scanlab::sim::take_reports()) {
        if (!report.is_error) continue;
        failed = true;
        failure << "\n[" << scanlab::sim::to_string(report.kind) << "] " << report.text;
    }
    if (failed) return failure;
#endif
    return ::testing::AssertionSuccess();
}

}  // namespace scanlab::grading
