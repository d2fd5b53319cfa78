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
    const std::string::size_type first_line_end = report.text.find('\n');
    std::string text = report.text.substr(0, first_line_end);
    // "scanlab-sim: error: invalid kernel launch: ..." -> "invalid kernel launch: ..."
    if (const std::string::size_type cut = text.find("error: "); cut != std::string::npos) text = text.substr(cut + 7);
    // The first place the report names ("  launch: file:line (in f)  block ...").
    if (first_line_end != std::string::npos) {
        const std::string::size_type next_end = report.text.find('\n', first_line_end + 1);
        std::string party = report.text.substr(first_line_end + 1, next_end - first_line_end - 1);
        if (const std::string::size_type colon = party.find(": "); colon != std::string::npos) {
            party = party.substr(colon + 2);
            party.erase(0, party.find_first_not_of(' '));
            text += " (at " + party.substr(0, party.find_first_of(" ")) + ")";
        }
    }
    return "[" + std::string(scanlab::sim::to_string(report.kind)) + "] " + text;
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

}  // namespace scanlab::grading
