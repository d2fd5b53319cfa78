// One launch while it runs: its resident slots, the worker (OS thread) that runs each, the block
// each slot runs now and those queued behind it, and the phases the workers run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "threads/block.hpp"
#include "threads/launch.hpp"

namespace scanlab::sim::detail::launch_run {

// The worker (OS thread) that runs a slot, always the same one (a parked fiber resumes on the
// worker that made it): slot k % workers for the first kMaxResidentBlocks, which spreads any
// number of resident blocks over every worker. Slots beyond them (a grid admitted whole, hundreds
// of slots) go to the workers in runs of kMaxResidentBlocks consecutive slots: the serial phase
// visits slots in order, and each change of worker between two turns is a hand-off between OS
// threads, which costs far more than the turn (a chain of 391 blocks took 8 times as long with
// the slots alternating between two workers as on one).
unsigned worker_of(unsigned slot, unsigned workers);

// The resident slots and their blocks: as many as a launch ever had at once. Never destroyed, like
// the stacks: parked fibers need no unwinding at exit.
struct Slots {
  std::vector<std::unique_ptr<Block>> blocks;
  unsigned workers = 0;  // the worker count the parked fibers were made under
};
Slots& slots();

// One launch while it runs: what the host thread decides between phases, and what the workers
// read during them.
struct Run {
  Launch* launch = nullptr;
  unsigned workers = 1;  // slot k belongs to worker_of(k, workers)
  unsigned busy_workers = 1;  // those that own a slot of this launch: 0 .. busy_workers - 1
  unsigned slot_count = 0;
  std::uint64_t seed = 0;
  // Slot k runs the blocks order[k], order[k + slot_count], order[k + 2 slot_count], ... one
  // after the other: a block starts as soon as the one before it in its slot finishes, in the
  // same phase, so blocks that do not wait for each other flow without a round's barrier.
  // Once every block is admitted (admit_every_block), each slot runs one block.
  const std::vector<unsigned>* order = nullptr;
  bool every_block_admitted = false;
  std::vector<std::size_t> position;  // per slot: where in `order` its current block is
  // Per slot (not std::vector<bool>, whose bits share words: workers write their own slots').
  std::vector<char> resident;         // a block of this launch is there
  std::vector<char> to_start;         // its current block has not started yet
  std::vector<unsigned> serial_slots;  // slots with threads waiting for the serial phase, in order

  Block& block(unsigned slot) const { return *slots().blocks[slot]; }
  bool owns(unsigned worker, unsigned slot) const { return worker_of(slot, workers) == worker; }
  // Moves the slot on to its next block; false when it has none.
  bool advance(unsigned slot) {
    position[slot] += slot_count;
    to_start[slot] = !every_block_admitted && position[slot] < order->size();
    return to_start[slot] != 0;
  }
  // Where in `order` the blocks are that wait for a slot of their own: behind the current
  // block of each slot.
  std::vector<std::size_t> queued() const {
    std::vector<std::size_t> positions;
    if (every_block_admitted) return positions;
    for (unsigned slot = 0; slot < slot_count; ++slot)
      for (std::size_t i = position[slot] + slot_count; i < order->size(); i += slot_count) positions.push_back(i);
    std::sort(positions.begin(), positions.end());
    return positions;
  }
  std::vector<unsigned> not_started() const {
    std::vector<std::size_t> positions = queued();
    for (unsigned slot = 0; slot < slot_count; ++slot)
      if (to_start[slot]) positions.push_back(position[slot]);
    std::sort(positions.begin(), positions.end());
    std::vector<unsigned> blocks;
    for (std::size_t i : positions) blocks.push_back((*order)[i]);
    return blocks;
  }
};

// A slot before a launch's block first takes it; made the first time a launch needs it.
void prepare_slot(unsigned slot);
// Every block that waits for a slot gets one of its own, and starts in the next parallel phase.
void admit_every_block(Run& r);

// The phases, each run by every busy worker (worker_pool::run_on_each) on the Run as context.
void parallel_phase(void* context, unsigned worker);
void serial_phase(void* context, unsigned worker);
// A stopped launch leaves blocks behind: their fibers unwind on their own workers.
void teardown_phase(void* context, unsigned worker);
// Parked fibers belong to the worker that made them; when the number of workers changes, each
// worker drops its own before the slots change hands.
void drop_parked_fibers(void* context, unsigned worker);

// After a phase, on the host thread: each block's findings and errors in slot order, up to
// the first block that stopped the launch (what later blocks found is dropped, whatever
// timing let them do).
void collect(Run& r);

}  // namespace scanlab::sim::detail::launch_run
