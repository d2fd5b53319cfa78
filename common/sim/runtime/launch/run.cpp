#include "launch/run.hpp"

#include <algorithm>

#include "findings/report.hpp"
#include "launch/block_life.hpp"
#include "launch/rounds.hpp"
#include "threads/fault_handler.hpp"
#include "threads/worker_pool.hpp"

namespace scanlab::sim::detail::launch_run {

unsigned worker_of(unsigned slot, unsigned workers) {
  return slot < kMaxResidentBlocks ? slot % workers : slot / kMaxResidentBlocks % workers;
}

Slots& slots() {
  static Slots* s = new Slots;
  return *s;
}

void prepare_slot(unsigned slot) {
  Slots& all = slots();
  if (all.blocks.size() <= slot) all.blocks.resize(slot + 1);
  if (!all.blocks[slot]) all.blocks[slot] = std::make_unique<Block>();
  Block& b = *all.blocks[slot];
  b.stopped = false;
  b.stopped_alone = false;
  b.progressed = false;
  b.error = cudaSuccess;
}

void admit_every_block(Run& r) {
  for (std::size_t i : r.queued()) {
    const unsigned slot = r.slot_count++;
    prepare_slot(slot);
    r.position.push_back(i);
    r.resident.push_back(1);
    r.to_start.push_back(1);
  }
  r.every_block_admitted = true;
  r.busy_workers = std::min(r.workers, r.slot_count);
}

void parallel_phase(void* context, unsigned worker) {
  Run& r = *static_cast<Run*>(context);
  for (unsigned slot = worker; slot < r.slot_count; ++slot) {
    if (!r.owns(worker, slot) || !r.resident[slot]) continue;
    Block& b = r.block(slot);
    pending_findings = &b.findings;  // the slot's findings of this phase, of every block it ran
    for (;;) {
      if (r.to_start[slot]) {
        if (fault_handler::spin_stopped_launch()) break;  // the launch ends: no block starts
        blocks::start(b, *r.launch, (*r.order)[r.position[slot]], slot, r.seed);
        r.to_start[slot] = 0;
      }
      if (!b.finished && !b.stopped) rounds::parallel_step(b);
      if (b.stopped_alone) {
        blocks::retire_stopped(b);
        if (!r.advance(slot)) break;
        continue;
      }
      if (!b.finished) break;
      blocks::end(b);
      if (!r.advance(slot)) break;
    }
    pending_findings = nullptr;
  }
}

void serial_phase(void* context, unsigned worker) {
  Run& r = *static_cast<Run*>(context);
  for (unsigned turn = 0; turn < r.serial_slots.size(); ++turn) {
    const unsigned slot = r.serial_slots[turn];
    if (!r.owns(worker, slot)) continue;
    worker_pool::wait_for_turn(turn);
    Block& b = r.block(slot);
    pending_findings = &b.findings;
    rounds::serial_step(b);
    if (b.stopped_alone) {
      blocks::retire_stopped(b);
      r.advance(slot);  // its next block starts in the next parallel phase
    } else if (b.finished) {
      blocks::end(b);
      r.advance(slot);  // it starts in the next parallel phase
    }
    pending_findings = nullptr;
    worker_pool::next_turn();
  }
}

void teardown_phase(void* context, unsigned worker) {
  Run& r = *static_cast<Run*>(context);
  for (unsigned slot = worker; slot < r.slot_count; ++slot)
    if (r.owns(worker, slot) && r.resident[slot] && !r.block(slot).finished) blocks::end(r.block(slot));
}

void drop_parked_fibers(void*, unsigned worker) {
  Slots& s = slots();
  for (unsigned slot = worker; slot < s.blocks.size(); ++slot)
    if (worker_of(slot, s.workers) == worker && s.blocks[slot]) {
      s.blocks[slot]->threads.reset();
      s.blocks[slot]->thread_count = 0;
    }
}

void collect(Run& r) {
  Launch& launch = *r.launch;
  for (unsigned slot = 0; slot < r.slot_count; ++slot) {
    if (!r.resident[slot]) continue;
    Block& b = r.block(slot);
    if (launch.aborted) {
      drop_findings(b.findings);
      continue;
    }
    print_findings(b.findings);
    if (b.stopped) {
      launch.aborted = true;
      launch.error = b.error;
    } else if (b.error != cudaSuccess && launch.error == cudaSuccess) {
      launch.error = b.error;
    }
    if (b.progressed) launch.progress = true;
    b.progressed = false;
  }
}

}  // namespace scanlab::sim::detail::launch_run
