// The simulator's machine-readable reports ($SCANLAB_SIM_REPORT_JSON: one JSON object a line)
// read back into structs, so tests judge the same findings a student sees on stderr.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace scanlab::sim::testing {

struct ReportParty {
  std::string role;  // "read", "write", "__syncthreads", "spinning", "launch", ...
  std::string file;
  unsigned line = 0;
  std::optional<std::array<unsigned, 3>> block;   // absent for host code (a launch, a host access)
  std::optional<std::array<unsigned, 3>> thread;
};

// Where a finding happened ("memory"): in shared memory a variable of a block (what a run asked
// for a race's picture names), in global memory a buffer; and the byte of it.
struct ReportMemory {
  std::string space;     // "shared" or "global"
  std::string variable;  // shared
  std::string buffer;    // global: as the location names it
  std::size_t byte = 0;
  std::array<unsigned, 3> block{};  // shared
};

// One access of a race's picture (SCANLAB_SIM_RACE_PICTURE): cell, barrier interval, thread, line.
struct PictureAccess {
  long cell = 0;
  unsigned interval = 0;
  unsigned thread = 0;
  std::string role;
  unsigned line = 0;
};

struct ReportPicture {
  ReportMemory memory;
  long first_cell = 0, cells = 0;
  std::vector<unsigned> intervals;  // their numbers, oldest first
  std::vector<PictureAccess> accesses;
  std::array<PictureAccess, 2> racing;  // the earlier access, then the later one
};

struct JsonReport {
  std::string kind;  // "race", "barrier-divergence", ...
  bool error = true;
  std::string headline;
  std::vector<ReportParty> parties;
  std::string location;  // the buffer or variable and the byte; may be empty
  std::string fix;       // what would fix it; may be empty
  std::optional<ReportMemory> memory;
  std::optional<ReportPicture> picture;
  std::string handoff_missing;  // "handoff": {"missing": ...}: a hand-off's side without its ordering; may be empty
};

// Parses a file of JSON lines; throws std::runtime_error with the line number on malformed input.
std::vector<JsonReport> parse_reports(const std::string& text);

}  // namespace scanlab::sim::testing
