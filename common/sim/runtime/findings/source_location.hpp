// A place in the program's source, as a finding names it (file, line, function).
#pragma once

#include <string>

namespace scanlab::sim::detail {

struct SourceLocation {
  std::string file;
  unsigned line = 0;
  std::string function;
  std::string text() const;  // "file:line (in function)"
};

}  // namespace scanlab::sim::detail
