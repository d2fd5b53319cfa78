// A place in the student's source, as rewritten code passes it along (__FILE__, __LINE__): where a
// barrier, a warp intrinsic, a __shared__ declaration or a launch is written. Reports name it.
#pragma once

namespace scanlab::sim::detail {

struct Site {
  const char* file = nullptr;
  unsigned line = 0;
};

}  // namespace scanlab::sim::detail
