// A place in the student's source, as rewritten code passes it along (__FILE__, __LINE__): where a
// barrier, a warp intrinsic, a __shared__ declaration or a launch is written. Reports name it.
#pragma once

#include <cstring>

namespace scanlab::sim::detail {

struct Site {
  const char* file = nullptr;
  unsigned line = 0;
};

// The same place: the same line of the same file (a file's name may come as two copies of the string).
inline bool same_site(Site a, Site b) {
  return a.line == b.line && (a.file == b.file || (a.file && b.file && std::strcmp(a.file, b.file) == 0));
}

}  // namespace scanlab::sim::detail
