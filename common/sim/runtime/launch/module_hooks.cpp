#include "launch/module_hooks.hpp"

#include <cstddef>

#include "checks/counters.hpp"
#include "checks/memory_check.hpp"
#include "checks/memory_order.hpp"
#include "checks/race_detector.hpp"
#include "collectives/async_barrier.hpp"
#include "collectives/barrier.hpp"
#include "collectives/block_pipeline.hpp"
#include "collectives/bulk_copy.hpp"
#include "collectives/grid_barrier.hpp"
#include "collectives/tile_barrier.hpp"
#include "collectives/warp.hpp"
#include "threads/shared_memory.hpp"

namespace scanlab::sim::detail::module_hooks {
namespace {

// A module's hooks; null where it has nothing to do then.
struct Hooks {
  void (*begin_launch)(const Launch&);
  void (*begin_block)(Block&);
  void (*end_block)(Block&);
  void (*end_launch)(const Launch&);
};

// Every module with a part of a launch or a block. Order matters where one part reads another:
// counters end a block's last interval while its shared memory is still placed.
constexpr Hooks kModules[] = {
    {nullptr, barrier::begin_block, barrier::end_block, nullptr},
    {nullptr, warp::begin_block, nullptr, nullptr},
    {nullptr, tile_barrier::begin_block, nullptr, nullptr},
    {grid_barrier::begin_launch, nullptr, grid_barrier::end_block, nullptr},
    {nullptr, shared_memory::begin_block, shared_memory::end_block, nullptr},
    // After shared memory: bulk stores never waited for still read it when their block ends.
    {nullptr, async_barrier::begin_block, nullptr, nullptr},
    {nullptr, bulk_copy::begin_block, bulk_copy::end_block, nullptr},
    // After shared memory and the barrier objects: a copy still in flight is named by its stage.
    {nullptr, block_pipeline::begin_block, block_pipeline::end_block, nullptr},
    {race_detector::begin_launch, race_detector::begin_block, nullptr, race_detector::end_launch},
    {memory_order::begin_launch, memory_order::begin_block, nullptr, nullptr},
    {nullptr, memory_check::begin_block, nullptr, nullptr},
    {counters::begin_launch, counters::begin_block, counters::end_block, nullptr},
};
constexpr std::size_t kCount = sizeof kModules / sizeof kModules[0];

}  // namespace

void begin_launch(const Launch& launch) {
  for (const Hooks& m : kModules)
    if (m.begin_launch) m.begin_launch(launch);
}

void begin_block(Block& b) {
  for (const Hooks& m : kModules)
    if (m.begin_block) m.begin_block(b);
}

void end_block(Block& b) {
  for (std::size_t i = kCount; i-- > 0;)
    if (kModules[i].end_block) kModules[i].end_block(b);
}

void end_launch(const Launch& launch) {
  for (std::size_t i = kCount; i-- > 0;)
    if (kModules[i].end_launch) kModules[i].end_launch(launch);
}

}  // namespace scanlab::sim::detail::module_hooks
