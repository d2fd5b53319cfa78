// Bulk asynchronous copies (cp.async.bulk, cuda::device::memcpy_async_tx): an asynchronous agent,
// not the thread that issues it, moves the bytes.
// - Global to shared, tracked by a barrier object: the copy writes the shared destination for the
//   barrier's current phase and delivers its bytes to the phase's transaction count; a thread
//   sees them only once it has seen that phase complete (async_barrier.hpp), so a read of the
//   destination before the wait is a race with the copy, and so is a write to the destination,
//   or to the source, that the copy is not ordered after.
// - Shared to global, in bulk groups (commit_group, wait_group, wait_group_read): the copy reads
//   its shared source until its thread's wait covers its group; a write to the source before
//   then is reported, and the copy carries what the source holds when the wait comes. What
//   ordinary stores wrote to the source must be ordered before the copy's reads by a
//   fence.proxy.async after them (the writer's, or the issuing thread's): a bulk copy reads
//   through the async proxy, which barriers alone do not order.
#pragma once

#include <cstddef>
#include <cstdint>

#include "threads/block.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::bulk_copy {

void begin_block(Block& b);
// Bulk stores a thread issued and never waited for are reported, and carried out before the
// block's shared memory goes.
void end_block(Block& b);

// A copy of `bytes` from global memory at `source` to shared memory at `destination`, issued by
// thread t; `barrier` (an address in shared memory) receives its bytes as transaction bytes.
void load(Thread* t, std::uintptr_t destination, std::uintptr_t source, std::size_t bytes, std::uintptr_t barrier,
          std::uintptr_t pc);
// cuda::memcpy_async with a barrier: a copy of `bytes` (any size) into shared memory at
// `destination`, issued by thread t, that completes with the barrier's current phase.
void phase_copy(Thread* t, std::uintptr_t destination, std::uintptr_t source, std::size_t bytes,
                std::uintptr_t barrier, std::uintptr_t pc);
// A copy of `bytes` from shared memory at `source` to global memory at `destination`, issued by
// thread t, in its bulk group not yet committed.
void store(Thread* t, std::uintptr_t destination, std::uintptr_t source, std::size_t bytes, std::uintptr_t pc);
// fence.proxy.async by thread t: its warp's ordinary writes so far are ordered before the bulk
// copies that read them.
void proxy_fence(Thread* t);
// cp.async.bulk.commit_group: t's stores issued since its last commit form a bulk group.
void commit(Thread* t);
// cp.async.bulk.wait_group(.read) N: t waits until at most `groups_left` of its most recent
// committed groups are still in flight.
void wait(Thread* t, unsigned groups_left, std::uintptr_t pc);

}  // namespace scanlab::sim::detail::bulk_copy
