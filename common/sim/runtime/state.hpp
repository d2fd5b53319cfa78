// The simulator's model of a running kernel: launches, blocks, warps and threads.
// Internal to the runtime; lab code sees only include/scanlab/sim.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <boost/context/fiber.hpp>

#include "scanlab/sim/cuda.hpp"

namespace scanlab::sim::detail {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kMaxThreadsPerBlock = 1024;
constexpr std::size_t kDefaultSharedBytesPerBlock = 48 * 1024;   // without an opt-in
constexpr std::size_t kMaxSharedBytesPerBlock = 227 * 1024;      // H100 opt-in limit
constexpr unsigned kMaxResidentBlocks = 64;

struct Site {
  const char* file = nullptr;
  unsigned line = 0;
};

struct Launch;
struct Block;
struct WarpGroup;

enum class Waiting : std::uint8_t { no, barrier, warp };
enum class BarrierKind : std::uint8_t { sync, count, all, any };

struct Thread {
  Coordinates coords;
  Block* block = nullptr;
  unsigned linear = 0;  // x + y*Dx + z*Dx*Dy, as CUDA numbers threads into warps
  unsigned lane = 0;
  unsigned warp = 0;
  bool exited = false;
  Waiting waiting = Waiting::no;

  Site barrier_site;
  BarrierKind barrier_kind = BarrierKind::sync;
  int barrier_predicate = 0;
  int barrier_result = 0;

  std::uint64_t warp_value = 0;   // what this lane brings to a warp collective
  std::uint64_t warp_result = 0;  // what it takes away

  // Happens-before among the lanes of a warp: lane clocks joined at every __syncwarp.
  std::array<std::uint32_t, kWarpSize> warp_clock{};

  std::uintptr_t last_yield_pc = 0;  // where it last spun, for deadlock reports
  bool stored_since_yield = false;

  boost::context::fiber fiber;      // this CUDA thread while it is suspended
  boost::context::fiber scheduler;  // the scheduler while this CUDA thread runs
};

enum class CollectiveKind : std::uint8_t { syncwarp, ballot, any, all, shfl_index, shfl_up, shfl_down, shfl_xor };

struct WarpGroup {
  CollectiveKind kind;
  unsigned mask = 0;
  unsigned arrived = 0;
  int width = 32;
  Site site;
  std::array<int, kWarpSize> lane_argument{};  // source lane or delta per lane
};

struct Warp {
  unsigned existing = 0;  // lanes that exist (a partial last warp has fewer)
  unsigned exited = 0;
  std::vector<WarpGroup> pending;  // collectives waiting for lanes, with disjoint masks
};

struct SharedVariable {
  const void* key;
  std::size_t offset;
  std::size_t bytes;
  const char* name;
  Site declared;
};

struct Block {
  Launch* launch = nullptr;
  unsigned linear = 0;
  uint3 index{};
  unsigned slot = 0;  // which resident slot (shared memory arena) it occupies
  std::unique_ptr<Thread[]> threads;
  unsigned thread_count = 0;
  unsigned live = 0;
  unsigned at_barrier = 0;
  unsigned at_warp = 0;
  std::vector<Warp> warps;
  std::vector<Thread*> runnable;  // threads to resume in the next round
  std::vector<Thread*> round;     // scratch
  std::uint32_t interval = 1;     // barrier generation: accesses in different intervals are ordered
  Site last_barrier;

  unsigned char* shared_base = nullptr;
  std::size_t shared_used = 0;
  std::size_t dynamic_bytes = 0;
  std::vector<SharedVariable> shared_variables;

  // Ordering between blocks (global memory): a vector clock, advanced by __threadfence.
  std::uint32_t clock = 1;      // stamped on this block's global accesses
  std::uint32_t published = 0;  // accesses stamped <= published are made visible by a fence
  // knows[b] = c + 1: this block acquired a flag from block b that published b's accesses
  // stamped <= c; 0: no hand-off from b at all.
  std::vector<std::uint32_t> knows;

  bool finished = false;
  bool progress = false;  // something other than spinning happened in the current round
};

struct Launch {
  std::uint32_t id = 0;
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared_bytes = 0;
  Site site;
  void (*thread_entry)(const void*) = nullptr;
  const void* kernel_call = nullptr;
  unsigned threads_per_block = 0;
  unsigned block_count = 0;
  bool progress = false;
  bool aborted = false;
  cudaError_t error = cudaSuccess;
  // Release/acquire state of global locations written with atomics or volatile stores.
  std::unordered_map<std::uintptr_t, std::vector<std::uint32_t>> sync_objects;
};

// The CUDA thread running now (null in host code); one simulator runs per OS thread at a time.
extern thread_local Thread* current_thread __attribute__((tls_model("initial-exec")));

// Give the processor back to the scheduler; returns when this thread is resumed.
void suspend(Thread* t);
// A spin-wait point (volatile access, atomic, fence, __nanosleep): let others run.
void yield(Thread* t, std::uintptr_t pc);
// Stop the kernel: the scheduler tears the launch down after this thread suspends.
[[noreturn]] void abort_kernel(Thread* t, cudaError_t error);

uint3 unflatten(unsigned linear, dim3 extent);

}  // namespace scanlab::sim::detail
