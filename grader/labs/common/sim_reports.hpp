// The simulator's reports (race, barrier divergence, out-of-bounds access, ...) while tests run.
//
// Every report made while a test runs reaches the grader, whichever check the test belongs to:
// the harness (grader/harness/harness_main.cpp) starts each test with none and sends the test's
// reports with its result, and the grader shows each place once under that test's check. The
// helpers here judge them too: the race-freedom tests fail on the errors of synchronization
// (races, barriers, warp masks, deadlocks), and a failed call into lab code names the report
// behind its CUDA error. On a GPU there is nothing to read here: `grade --backend cuda` runs the
// race-freedom tests under compute-sanitizer racecheck and synccheck, which fail the process.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#ifdef SCANLAB_SIM
#include <scanlab/sim/diagnostics.hpp>
#endif

namespace scanlab::grading {

#ifdef SCANLAB_SIM
// Every report of the running test taken so far, kept for the harness whoever took it.
inline std::vector<scanlab::sim::Report>& reports_of_this_test() {
    static std::vector<scanlab::sim::Report> kept;
    return kept;
}

// The reports made since the previous call; they are kept for the harness too.
inline std::vector<scanlab::sim::Report> take_simulator_reports() {
    std::vector<scanlab::sim::Report> fresh = scanlab::sim::take_reports();
    std::vector<scanlab::sim::Report>& kept = reports_of_this_test();
    kept.insert(kept.end(), fresh.begin(), fresh.end());
    return fresh;
}

// What the race-freedom checks judge: synchronization. An out-of-bounds access or a read of
// memory nothing wrote is the correctness checks' finding, and a bad launch fails the call.
inline bool is_synchronization_error(const scanlab::sim::Report& report) {
    using scanlab::sim::ReportKind;
    return report.is_error && (report.kind == ReportKind::race || report.kind == ReportKind::barrier_divergence ||
                               report.kind == ReportKind::warp_mask || report.kind == ReportKind::deadlock);
}
#endif

// Sets aside the reports of earlier work, so that a check judges only what follows (they still
// reach the grader), and lets a place reported during earlier work be reported again.
inline void discard_simulator_reports() {
#ifdef SCANLAB_SIM
    take_simulator_reports();
    scanlab::sim::forget_reported_places();
#endif
}

#ifdef SCANLAB_SIM
// A report in one line, for a failure message: "[invalid-launch] invalid kernel launch: a grid
// or block dimension is 0 (at file:line)". The grader lists each report in full under the check.
inline std::string in_brief(const scanlab::sim::Report& report) {
    std::string brief = "[" + std::string(scanlab::sim::to_string(report.kind)) + "] " + report.headline;
    if (!report.first_place.empty()) brief += " (at " + report.first_place + ")";
    return brief;
}
#endif

// The error reports since the last call other than those of synchronization, in one line each,
// for the message of a failed call into lab code: the report behind a CUDA error. Empty when
// there is none, and on a GPU.
inline std::string simulator_errors_in_brief() {
    std::string brief;
#ifdef SCANLAB_SIM
    for (const scanlab::sim::Report& report : take_simulator_reports()) {
        if (!report.is_error || is_synchronization_error(report)) continue;
        brief += (brief.empty() ? "" : "; ") + in_brief(report);
    }
#endif
    return brief;
}

inline ::testing::AssertionResult no_simulator_errors() {
#ifdef SCANLAB_SIM
    // Each place once: the grader lists every report in full under the check.
    std::vector<std::string> briefs;
    for (const scanlab::sim::Report& report : take_simulator_reports()) {
        if (!is_synchronization_error(report)) continue;
        std::string brief = in_brief(report);
        if (std::find(briefs.begin(), briefs.end(), brief) == briefs.end()) briefs.push_back(std::move(brief));
    }
    if (!briefs.empty()) {
        auto failure = ::testing::AssertionFailure() << "the simulator reported: " << briefs.front();
        for (std::size_t i = 1; i < briefs.size(); ++i) failure << "; " << briefs[i];
        return failure;
    }
#endif
    return ::testing::AssertionSuccess();
}

// What a forward-progress check judges of the simulator's reports: that the scan makes progress,
// so a deadlock only. A race (a prefix read without its fence, ...), a barrier or a warp-mask
// error is the race-freedom check's to charge, and one mistake costs its own points: a run that
// finishes with the right result passes here whatever race it had, and a race that makes the
// result wrong fails by the wrong result.
inline ::testing::AssertionResult no_deadlock() {
#ifdef SCANLAB_SIM
    for (const scanlab::sim::Report& report : take_simulator_reports()) {
        if (report.is_error && report.kind == scanlab::sim::ReportKind::deadlock) {
            return ::testing::AssertionFailure() << "the simulator reported: " << in_brief(report);
        }
    }
#endif
    return ::testing::AssertionSuccess();
}

}  // namespace scanlab::grading
