// The page of a program's run (SCANLAB_SIM_PAGE=FILE.html): when the program ends, its findings
// drawn on one self-contained HTML page, as the grader draws a graded submission's. The runtime
// keeps the run's finding records in a file of its own; at exit it hands them, with the
// program's command line, to the page tool (common/bin/simcc-page), which runs the program
// again for each race in shared memory that it draws (SCANLAB_SIM_RACE_PICTURE) and writes the
// page. A program stopped by a signal gets no page.
#pragma once

namespace scanlab::sim::detail {

// The file the run's records go to besides $SCANLAB_SIM_REPORT_JSON; null unless a page is asked for.
const char* run_page_records();

// Writes the page, once; a no-op unless SCANLAB_SIM_PAGE is set. Called from the exit handlers:
// the findings' (before a run with errors ends with its exit status) and its own.
void write_run_page();

}  // namespace scanlab::sim::detail
