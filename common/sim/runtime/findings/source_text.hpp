// The program's own words at a line of its source, for a finding that names a thing by the code
// that made it (a barrier object by its init() call) rather than by its bytes.
#pragma once

#include <string>

#include "findings/source_location.hpp"

namespace scanlab::sim::detail {

// The text of that line, with its indentation and any trailing comment removed; empty where the
// file cannot be read (a sandbox that hides the sources) or has no such line.
std::string source_line(const SourceLocation& where);

// The call of `function` on that line, with its arguments as written ("init(&bar[s], 32)"); empty
// where the line holds none.
std::string call_at(const SourceLocation& where, const std::string& function);

// The first argument of such a call, without a leading '&' ("bar[s]"); empty where none.
std::string first_argument(const std::string& call);

}  // namespace scanlab::sim::detail
