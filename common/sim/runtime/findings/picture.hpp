// What a race's picture is drawn from: the accesses of one block to a window of cells of the
// racing variable over a few barrier intervals, and the two accesses that raced. Data only:
// the race detector fills it (checks/race_picture.hpp), json_record writes it as the finding's
// "picture", and the grader draws it (grader/scanlab_grader/pictures.py).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "findings/source_location.hpp"

namespace scanlab::sim::detail {

// Where in memory a finding happened, in the program's terms: a shared variable of a block and
// a byte of it, or a buffer of global memory (which every block sees) and a byte of it. A
// finding's record carries it ("memory"), so that a grader can ask a run again for a shared-memory
// race's picture (SCANLAB_SIM_RACE_PICTURE, base/settings.hpp), or point at the buffer of a race,
// stale hand-off or read of unwritten memory in global memory, without reading any text.
enum class MemorySpace { shared, global };
struct MemorySubject {
  MemorySpace space = MemorySpace::shared;
  std::string variable;  // shared: as reports name it: "XY", "extern __shared__ (dynamic)"
  std::string buffer;    // global: as reports name it: "a 44-byte buffer allocated at scan.cu:197"
  std::size_t byte = 0;  // of the variable or the buffer
  unsigned block[3] = {0, 0, 0};  // shared: the block whose variable it is
};

// One access in the picture: which cell (element of the variable), in which barrier interval of
// the block, by which thread (its linear index in the block), reading or writing, at which line.
struct PictureAccess {
  long cell = 0;
  std::uint32_t interval = 0;
  unsigned thread = 0;
  std::string role;  // "read", "write", "atomic"
  SourceLocation where;
};

// A barrier interval of the block: its number (barriers crossed + 1) and, where the recorder saw
// it, the barrier that began it.
struct PictureInterval {
  std::uint32_t number = 0;
  bool barrier_known = false;
  SourceLocation barrier;
};

// One step of a block as SCANLAB_SIM_STEP_PICTURE records it (checks/step_picture.hpp): the
// shared variable's bytes as they were when the block crossed a barrier, and that barrier.
struct PictureStep {
  std::uint32_t interval = 0;  // the interval the barrier began (barriers crossed + 1)
  SourceLocation barrier;
  std::string bytes;           // the variable's bytes, in memory order
};

// The steps of one run of a block: which run (1 for the block's first in the process), the
// variable's size and every step, oldest first.
struct StepPicture {
  unsigned run = 0;
  std::size_t variable_bytes = 0;
  std::vector<PictureStep> steps;
  bool truncated = false;  // the process's budget of copies ran out in this run
};

// A race's picture, or (where `steps` is set) the steps of a block: a record carries one.
struct RacePicture {
  MemorySubject subject;
  std::optional<StepPicture> steps;  // set: a picture of steps, and only `subject` besides
  unsigned element_bytes = 4;  // a cell: the size of the racing access
  long first_cell = 0;         // the window: cells [first_cell, first_cell + cells)
  long cells = 0;
  long variable_cells = 0;     // cells in the whole variable
  std::vector<PictureInterval> intervals;  // oldest first; the last is the race's
  std::vector<PictureAccess> accesses;     // in the order they happened (each once per interval)
  PictureAccess racing[2];                 // the earlier access, then the later one
  bool truncated = false;                  // more accesses than the recorder keeps
};

// The picture as one JSON object (the value of a record's "picture"): a race's ("kind": "race"),
// or a block's steps ("kind": "steps", each step's bytes in hexadecimal).
std::string picture_json(const RacePicture& picture);
std::string memory_subject_json(const MemorySubject& subject);

}  // namespace scanlab::sim::detail
