// One CUDA thread: a fiber, the coordinates the kernel sees, and the part of the thread each
// module keeps (declared in, and written only by, that module).
#pragma once

#include <cstdint>

#include <boost/context/fiber.hpp>

#include "findings/report.hpp"
#include "scanlab/sim/cuda.hpp"
#include "threads/check_parts.hpp"
#include "threads/collective_parts.hpp"

namespace scanlab::sim::detail {

struct Block;

// A thread's row of plain loads, and the address it watches for a poll (threads/plain_poll.hpp).
struct PollWatch {
  std::uint32_t reads = 0;    // plain loads of device memory in a row, not counting the watched address's
  std::uint32_t repeats = 0;  // loads of the watched address in that row
  std::uintptr_t address = 0; // the watched address (0: none)
  std::uint64_t value = 0;    // what the thread last loaded there
  bool polling = false;       // the thread polls it: each load of it is a spin-wait point
};

// What a suspended thread waits for; the scheduler resumes only threads that wait for nothing.
// serial_phase: an operation other blocks see (scheduler::cross_block), which runs when the
// blocks take turns.
enum class Waiting : std::uint8_t { no, barrier, warp, serial_phase };

// Cache-line aligned, with what every barrier crossing touches in the first line and what the
// kernel reads (its coordinates) in the second: a round visits every thread of a block, and for
// 1024 threads the lines each one touches decide whether a block's state stays in the L2 cache.
struct alignas(64) Thread {
  boost::context::fiber fiber;  // this CUDA thread while it is suspended
  Block* block = nullptr;
  unsigned linear = 0;  // x + y*Dx + z*Dx*Dy, as CUDA numbers threads into warps
  unsigned lane = 0;
  unsigned warp = 0;
  bool exited = false;
  Waiting waiting = Waiting::no;
  bool stored_since_yield = false;  // progress, for deadlock detection: set by whatever stores
  bool in_serial_turn = false;      // resumed by the serial phase, until it suspends
  bool used_serial_turn = false;    // its cross-block operation of this turn has run
  barrier::Arrival barrier;  // barrier.cpp

  Coordinates coords;
  boost::context::fiber scheduler;   // the scheduler while this CUDA thread runs (serial phase)
  std::uintptr_t last_yield_pc = 0;  // where it last spun, for deadlock reports
  // Its run of strong stores to neighbouring words (scheduler::cross_block): where the last one
  // went (0: its last cross-block operation was no store) and how many the run has had.
  std::uintptr_t store_run_address = 0;
  unsigned store_run_length = 0;
  PollWatch poll;          // plain_poll.cpp
  bool abandoned = false;  // stopped where it spun without touching memory: its fiber is dropped, not unwound

  race_detector::LaneClocks warp_clock{};  // race_detector.cpp
  warp::LaneExchange collective;           // warp.cpp
  counters::LaneTally counting;            // counters.cpp
};

// The CUDA thread running now (null in host code); one simulator runs per OS thread at a time.
// __thread, like current_coordinates: every access hook reads it, without an initializer check.
extern __thread Thread* current_thread __attribute__((tls_model("initial-exec")));

// The side of a finding that thread t (null: host code) took at `where`.
Party party(const char* role, const Thread* t, SourceLocation where);

}  // namespace scanlab::sim::detail
