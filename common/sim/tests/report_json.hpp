// The simulator's machine-readable reports ($SCANLAB_SIM_REPORT_JSON: one JSON object a line)
// read back into structs, so tests judge the same findings a student sees on stderr.
#pragma once

#include <array>
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

struct JsonReport {
  std::string kind;  // "race", "barrier-divergence", ...
  bool error = true;
  std::string headline;
  std::vector<ReportParty> parties;
  std::string location;  // the buffer or variable and the byte; may be empty
  std::string fix;       // what would fix it; may be empty
};

// Parses a file of JSON lines; throws std::runtime_error with the line number on malformed input.
std::vector<JsonReport> parse_reports(const std::string& text);

}  // namespace scanlab::sim::testing
