// The scheduling choices a launch runs under, and the random stream they draw from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "scanlab/sim/diagnostics.hpp"

namespace scanlab::sim::detail {

// Read once from SCANLAB_SIM_SEED, SCANLAB_SIM_BLOCK_ORDER, SCANLAB_SIM_RESIDENT_BLOCKS,
// SCANLAB_SIM_RACECHECK, SCANLAB_SIM_THREADS and SCANLAB_SIM_REPLAY, then changed only through
// set_schedule().
const Schedule& schedule();

// OS threads that run blocks side by side: SCANLAB_SIM_THREADS at most.
constexpr unsigned kMaxOsThreads = 256;

// Blocks that run at once: Schedule::resident_blocks, or 16 where it is 0 (the default).
constexpr unsigned kDefaultResidentBlocks = 16;
inline unsigned resident_slots(const Schedule& s) { return s.resident_blocks ? s.resident_blocks : kDefaultResidentBlocks; }
// Whether a launch whose resident blocks all wait for blocks not started may admit more, up to
// what the device holds at once: only where no number of resident blocks was asked for.
inline bool may_admit_to_fit(const Schedule& s) { return s.resident_blocks == 0; }

// "forward", "reverse", "random": as SCANLAB_SIM_BLOCK_ORDER spells it.
const char* block_order_name(Schedule::BlockOrder order);

// SCANLAB_SIM_RACE_PICTURE=shared:BYTE:X,Y,Z:VARIABLE asks for the picture of a race: the
// accesses of block (X,Y,Z) to a window of the shared variable VARIABLE (as reports name it:
// `extern __shared__ (dynamic)` for the dynamic part) around byte BYTE, over the barrier
// interval of the first race there and the two before it (checks/race_picture.hpp). A grader
// sets it when it runs again a test that failed with a race, from that race's record ("memory");
// unset, nothing is recorded.
struct RacePictureRequest {
  bool wanted = false;
  unsigned block[3] = {0, 0, 0};
  std::size_t byte = 0;
  std::string variable;
};
const RacePictureRequest& race_picture_request();

// "SCANLAB_SIM_SEED=1 SCANLAB_SIM_BLOCK_ORDER=reverse ...": what reproduces this run.
std::string describe_schedule();

// xoshiro-style generator: cheap, and the same sequence on every platform for a given seed.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

 private:
  std::uint64_t state_;
};

}  // namespace scanlab::sim::detail
