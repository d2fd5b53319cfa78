// What the simulator found, for programs (the grader, the simulator's own tests) that
// want to inspect it instead of reading stderr.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace scanlab::sim {

enum class ReportKind {
  race,                // two unordered accesses to the same byte, at least one a write
  barrier_divergence,  // live threads of a block at different barriers, or a different number of times
  barrier_after_exit,  // a barrier some threads of the block had already exited before (a warning)
  warp_mask,           // a warp intrinsic whose mask excludes the caller, names an exited lane, or disagrees
  deadlock,            // no thread can make progress
  coresidency,         // blocks waited for blocks not started, and the grid completed only because it fits at once (a warning)
  out_of_bounds,       // an access outside every live device buffer or shared variable
  uninitialized_read,  // a read of device memory that nothing wrote (since cudaMalloc, or since the block started)
  invalid_launch,      // a launch configuration the device would reject
  host_access,         // host code dereferenced a device pointer
  unsupported,         // something the simulator cannot honour
  api_misuse,          // a CUDA runtime call with invalid arguments
  picture,             // what a run was asked to draw (SCANLAB_SIM_STEP_PICTURE): a note, never an error
};

const char* to_string(ReportKind kind);

struct Report {
  ReportKind kind;
  bool is_error;            // false for warnings
  std::string text;         // the full report as printed on stderr
  std::string headline;     // its first line, without "scanlab-sim: error: "
  std::string first_place;  // "file:line" of the first place it names; empty when it names none
  std::string record;       // the same finding as data: one JSON object, as $SCANLAB_SIM_REPORT_JSON has it
};

// Reports made since the previous call, oldest first; the list is cleared.
std::vector<Report> take_reports();

// A place (a pair of source lines) is reported once per process, so that a bug in a loop
// does not fill the screen. After this call, places already reported are reported again the
// next time they are found: a program that judges several runs separately (the grader's
// tests) calls it before each run. Each such run starts on a device whose earlier error no longer
// sticks: after an illegal address or a launch failure every later CUDA call returns that error,
// as on a GPU, until cudaDeviceReset or this call.
void forget_reported_places();

// Exit status the process ends with when an error was reported and main() returned 0.
// The default is 1, so a standalone program fails when the simulator found a bug;
// test programs that judge reports themselves set 0 ("leave the exit status alone").
void set_error_exit_status(int status);

struct Schedule {
  enum class BlockOrder { forward, reverse, random };
  // Blocks start last first by default: a GPU promises no order, and a block that waits for a
  // block with a lower blockIdx (a chain, a look-back) then waits for one that has not started
  // whenever the grid is larger than the resident slots, which the simulator reports.
  BlockOrder block_order = BlockOrder::reverse;
  // Blocks running at once; the rest wait for a free slot. 0, the default: 16, and when all of
  // them wait for blocks that have not started, every block of a grid that fits on the device at
  // once (reported as a warning). Any other number is kept, whatever the kernel waits for.
  unsigned resident_blocks = 0;
  std::uint64_t seed = 1;        // thread order within a barrier interval, random block order
  bool race_check = true;
  unsigned threads = 0;  // OS threads that run blocks (SCANLAB_SIM_THREADS); 0: every core
  // A launch that repeats an earlier one exactly is replayed, not run (SCANLAB_SIM_REPLAY;
  // runtime/launch/launch_replay.hpp). Off for graders and benchmarks, which run a kernel again on
  // purpose.
  bool replay = true;
};
Schedule get_schedule();
void set_schedule(const Schedule& schedule);

}  // namespace scanlab::sim
