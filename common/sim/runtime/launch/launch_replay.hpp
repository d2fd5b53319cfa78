// Replay of a launch identical to an earlier one. Benchmarks and sample programs launch the same
// kernel on the same data again and again (NVIDIA's scan sample: 100 identical launches at each
// of 17 sizes), and the simulator runs a kernel hundreds of times slower than a GPU: such a
// program would not finish. A kernel's run depends only on what it is given: the kernel, its
// launch configuration, its arguments, the schedule and the device memory it reads. When all of
// these are as they were at an earlier launch, the simulator writes what that run wrote instead
// of running the kernel again.
//
// "As they were": the same launch site's kernel, grid, block, dynamic shared memory, argument
// bytes and schedule (seed, block order, resident blocks, race checks), and every live cudaMalloc
// buffer where it was, with the same bytes, the same bytes written and unwritten. A run is kept
// for replay only where nothing else could have changed it or been changed by it: it touched no
// memory besides device buffers, shared memory and its own stack (no __device__ or __constant__
// variable, no host memory), called neither printf nor clock(), printed no finding and ended
// without an error; and a first launch's run only if it wrote little, so a program that
// launches each kernel once keeps no large copies. Counting operations (the
// grader's counters) turns replay off, and so does SCANLAB_SIM_REPLAY=0 (Schedule::replay).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "memory/memory.hpp"
#include "scanlab/sim/cuda.hpp"
#include "scanlab/sim/launch.hpp"
#include "threads/launch.hpp"

namespace scanlab::sim::detail::launch_replay {

// What kernel code does that a replay would not repeat, noted while a run is watched.
struct Watch {
  bool active = false;              // a launch runs whose result may be kept, or judged
  bool paused = false;              // a launch runs again to judge its garbage reads: printf prints nothing
  std::uintptr_t call_begin = 0;    // the call object kernel code reads its arguments from
  std::size_t call_bytes = 0;
  std::atomic<bool> unrepeatable{false};
};
// Defined in unrepeatable_calls.cpp, beside the printf that sets it: a program that prints and
// launches no kernel (a CPU-only test) then links no more of the simulator than that.
extern Watch watch;

// Whether `a` lies in memory that nothing can change once the program is loaded: a loaded
// object's read-only segments (code, constants, vtables and other data made read-only after
// relocation), as the objects were at the first call.
bool in_read_only_memory(std::uintptr_t a);

// Kernel code touched `a`, which lies outside device memory (memory::in_window is false): its
// own stack, the launch's arguments, the built-in variables and read-only memory (a vtable of
// cooperative groups) are part of the run; anything else (a __device__ variable, host memory)
// is not, and the run cannot be replayed.
inline void note_access_outside_device_memory(std::uintptr_t a) {
  if (!watch.active || memory::block_private(a) || a - watch.call_begin < watch.call_bytes) return;
  // threadIdx and the other built-in variables, which the simulator keeps for each thread, and
  // the per-OS-thread pointer that reaches them
  if (a - reinterpret_cast<std::uintptr_t>(current_coordinates) < sizeof(Coordinates) ||
      a == reinterpret_cast<std::uintptr_t>(&current_coordinates))
    return;
  if (watch.unrepeatable.load(std::memory_order_relaxed) || in_read_only_memory(a)) return;
  watch.unrepeatable.store(true, std::memory_order_relaxed);
}
// Code printed or read a clock while a watched launch ran: kernel code, since the launching
// thread waits in the launch (or another host thread, which costs only the replay).
inline void note_unrepeatable_call() {
  if (watch.active) watch.unrepeatable.store(true, std::memory_order_relaxed);
}

class Attempt;
struct AttemptDeleter {
  void operator()(Attempt* attempt) const;
};
using AttemptHandle = std::unique_ptr<Attempt, AttemptDeleter>;
// Before a launch: replays it when an earlier run matches, and says so. Otherwise the attempt
// watches the run that follows and, given to finish(), keeps its result if it may be replayed.
AttemptHandle begin(const LaunchRequest& request);
bool replayed(const Attempt& attempt);
void finish(Attempt& attempt, const Launch& launch);
// Whether the run watched so far did nothing a second run would not repeat (every run that is
// not a replay is watched, for launch/garbage_judgement.hpp too).
bool repeatable();
// While a launch runs again to judge its garbage reads: what it does is not watched, and what
// kernel code prints is dropped.
void pause_watch(bool paused);

}  // namespace scanlab::sim::detail::launch_replay
