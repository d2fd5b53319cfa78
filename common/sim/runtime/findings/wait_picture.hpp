// What a deadlock's picture is drawn from: the blocks of the launch (a window of them around
// the waiting ones), each with its state, and for a waiting block where it waits and for which
// word. Data only: the deadlock check fills it (launch/deadlock.cpp) from what it already knows
// when it reports, json_record writes it as the finding's "wait_picture", and the grader draws
// it (grader/scanlab_grader/pictures.py). It is small and bounded, so every deadlock carries it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "findings/source_location.hpp"

namespace scanlab::sim::detail {

// One block of the launch as the picture shows it.
struct WaitBlock {
  unsigned linear = 0;  // blockIdx, flattened as CUDA numbers blocks
  unsigned index[3] = {0, 0, 0};
  // "finished", "waiting" (a thread spins), "at a barrier" (resident, its threads wait for each
  // other or for a barrier object), "not started" (never resident: the blocks running hold
  // every place the device has for this launch).
  std::string state;
  // A waiting block: its spinning thread (linear index in the block), where it spins, the word it
  // polls in the program's terms and the value it last saw there.
  unsigned thread = 0;
  SourceLocation where;
  std::string word;              // "byte 32 of a 4104-byte buffer allocated at ...:200"; empty: not known
  std::uint64_t seen = 0;
  // The block whose word it polls, where the waiting blocks show how words follow blocks (see
  // WaitPicture::word_bytes); -1: not known.
  long waits_for = -1;
  // Taken from the blocks' order instead (the nearest earlier block not finished, where blocks
  // started out of blockIdx order): the spin read its word with volatile or atomic loads, which
  // leave no word to name.
  bool waits_for_by_order = false;
};

struct WaitPicture {
  unsigned grid_blocks = 0;       // blocks in the launch
  unsigned resident = 0;          // blocks that ran at once when it stopped
  std::string block_order;        // the order blocks were started in (SCANLAB_SIM_BLOCK_ORDER)
  std::vector<WaitBlock> blocks;  // the window, in blockIdx order
  // Blocks of the grid outside the window, by state: the page counts them.
  unsigned finished_not_shown = 0;
  unsigned not_started_not_shown = 0;
  // Bytes from one block's polled word to the next block's, found from two or more waiting
  // blocks that poll one buffer (a flag or status word per tile, tiles numbered by blockIdx);
  // 0 where the waiting blocks do not show it, and then no block's waits_for is known.
  std::size_t word_bytes = 0;
};

// The picture as one JSON object (the value of a record's "wait_picture").
std::string wait_picture_json(const WaitPicture& picture);

}  // namespace scanlab::sim::detail
