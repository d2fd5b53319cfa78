// Entry points of cooperative groups (scanlab/sim/cooperative_groups.hpp): a tile's or a
// coalesced group's methods are the warp module's collectives over the group's lanes; those of a
// tile of several warps are the tile barrier's rendezvous; the grid's sync() is the grid barrier
// of a cooperative launch.
#include "scanlab/sim/cooperative_groups.hpp"

#include <string>

#include "collectives/grid_barrier.hpp"
#include "collectives/tile_barrier.hpp"
#include "collectives/warp.hpp"
#include "findings/report.hpp"
#include "threads/block.hpp"
#include "threads/scheduler.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail {

std::uint64_t group_collective(GroupCollective op, unsigned mask, std::uint64_t value, int argument, int width,
                               const char* name, const char* file, unsigned line) {
  using warp::CollectiveKind;
  static constexpr CollectiveKind kinds[] = {
      CollectiveKind::syncwarp,   CollectiveKind::ballot,    CollectiveKind::any,      CollectiveKind::all,
      CollectiveKind::shfl_index, CollectiveKind::shfl_up,   CollectiveKind::shfl_down, CollectiveKind::shfl_xor,
      CollectiveKind::match_any,  CollectiveKind::match_all,
  };
  return warp::collective(kinds[static_cast<int>(op)], mask, value, argument, width, name, Site{file, line});
}

std::uint64_t tile_collective(TileCollective op, unsigned size, std::uint64_t value, unsigned source_rank,
                              const char* name, const char* file, unsigned line) {
  using tile_barrier::Kind;
  static constexpr Kind kinds[] = {Kind::sync, Kind::any, Kind::all, Kind::shfl};
  return tile_barrier::collective(kinds[static_cast<int>(op)], size, value, source_rank, name, Site{file, line});
}

// Out of line, so that the return address is the program's code at the call.
__attribute__((noinline)) void grid_sync(const char* file, unsigned line) {
  grid_barrier::sync(Site{file, line}, reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
}

bool in_cooperative_launch() {
  const Thread* t = current_thread;
  return t && t->block->launch->cooperative;
}

void tile_made(unsigned size) {
  if (size >= kWarpSize) return;
  if (Thread* t = current_thread) t->block->race.sub_warp_tiles |= size;
}

unsigned coalesced_lanes(const char* file, unsigned line) {
  return warp::coalesce("coalesced_threads", Site{file, line});
}

void invalid_partition(unsigned size, const char* file, unsigned line) {
  Finding f;
  f.kind = ReportKind::unsupported;
  f.headline = "tiled_partition(group, " + std::to_string(size) +
               "): CUDA makes tiles of 1, 2, 4, 8, 16 or 32 threads this way (tiled_partition<N> makes larger ones)";
  Thread* t = current_thread;
  f.parties.push_back(t ? party("tiled_partition", t, locate(Site{file, line}))
                        : host_party("tiled_partition", locate(Site{file, line})));
  f.details.push_back("the kernel was stopped; the launch reports cudaErrorInvalidValue");
  report(f);
  if (t) scheduler::abort_kernel(t, cudaErrorInvalidValue);
  std::abort();
}

}  // namespace scanlab::sim::detail
