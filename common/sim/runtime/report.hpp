// Findings: what the simulator tells a student, on stderr and through diagnostics.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scanlab/sim/cuda.hpp"
#include "scanlab/sim/diagnostics.hpp"
#include "site.hpp"

namespace scanlab::sim::detail {

struct Thread;

struct SourceLocation {
  std::string file;
  unsigned line = 0;
  std::string function;
  std::string text() const;
};

// One side of a finding: an access, a barrier, a spin-wait.
struct Party {
  std::string role;  // "write", "read", "atomic", "__syncthreads", ...
  SourceLocation where;
  bool in_kernel = false;
  uint3 block{};
  uint3 thread{};
};

struct Finding {
  ReportKind kind = ReportKind::unsupported;
  bool is_error = true;
  std::string headline;
  std::vector<Party> parties;
  std::vector<std::string> details;
};

SourceLocation locate(std::uintptr_t return_address);  // a code address in the program, via addr2line
SourceLocation locate(Site site);
Party party(const char* role, const Thread* t, SourceLocation where);
Party host_party(const char* role, SourceLocation where);

// Prints the finding, keeps it for take_reports(), appends it to $SCANLAB_SIM_REPORT_JSON.
void report(const Finding& finding);

// Each pair of code addresses is reported once per process: a race in a loop is one bug.
bool first_time(ReportKind kind, std::uintptr_t a, std::uintptr_t b);
// A finding of one place (an out-of-bounds access, a never-written read) is reported once per
// line of each function (each instantiation of a template): a line holds several accesses.
bool first_time_at(ReportKind kind, const SourceLocation& where, std::uintptr_t pc);

std::string format_index(uint3 v);

}  // namespace scanlab::sim::detail
