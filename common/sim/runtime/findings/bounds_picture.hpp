// What an out-of-bounds access's picture is drawn from: the buffer (or shared variable) the
// access missed, in cells of the access's size, and the accesses of the reporting block at that
// line that fell outside it. Data only: the memory check fills it (checks/memory_check.cpp),
// json_record writes it as the finding's "bounds_picture", and the grader draws the buffer's last
// cells, the cells past its end and each access as an arrow (grader/scanlab_grader/pictures.py).
// Bounded (kBoundsAccesses accesses), so every out-of-bounds finding carries it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "findings/source_location.hpp"

namespace scanlab::sim::detail {

constexpr std::size_t kBoundsAccesses = 12;

// One access outside the buffer: its cell (negative: before the buffer's start; buffer_cells or
// more: past its end), who made it and where.
struct BoundsAccess {
  long cell = 0;
  unsigned block[3] = {0, 0, 0};
  unsigned thread = 0;  // its linear index in the block
  std::string role;     // "read", "write", "atomic"
  SourceLocation where;
};

struct BoundsPicture {
  std::string space;   // "global" or "shared"
  std::string buffer;  // as a student knows it: "the 4000-byte buffer allocated at file:30", "shared variable 'tile'"
  unsigned element_bytes = 4;  // a cell: the size of the first access
  long buffer_cells = 0;       // whole cells in the buffer
  std::vector<BoundsAccess> accesses;  // the first access, then later ones of its block at its line
  bool truncated = false;              // more accesses than kBoundsAccesses
  std::uintptr_t begin = 0;  // the buffer's first byte, to place the later accesses (not written)
};

// The picture as one JSON object (the value of a record's "bounds_picture").
std::string bounds_picture_json(const BoundsPicture& picture);

}  // namespace scanlab::sim::detail
