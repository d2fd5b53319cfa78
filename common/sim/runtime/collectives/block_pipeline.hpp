// Pipelines shared by the threads of a block (cuda::pipeline_shared_state<thread_scope_block, N>,
// cuda::make_pipeline(group, &state[, role or producer count])), built on the block's barrier
// objects as libcu++ builds them: each stage has a `produced` barrier that its producers'
// producer_commit() arrive on and consumer_wait() waits for, and a `consumed` one that its
// consumers' consumer_release() arrive on and producer_acquire() waits for. A copy into the
// stage (cuda::memcpy_async with the pipeline) completes with the round of the stage's produced
// barrier, as a copy tracked by a cuda::barrier does (bulk_copy::phase_copy), so that:
// - a consumer's read of a stage before its consumer_wait() is a race with the copy's line;
// - a copy into a buffer that consumers still read (a ring of fewer buffers than stages, or a
//   consumer_release() before the reads) is a race between the copy and the read;
// - a wait that no commit or release will satisfy is a deadlock, described in these words;
// - a copy whose round never completed when its block ended is reported at its line.
// The pipeline's own state (its head, tail and parities) is the program's object; what the
// runtime keeps is the roles' counts and the stages' barriers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "scanlab/sim/pipeline_copies.hpp"
#include "threads/block.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::block_pipeline {

using scanlab::sim::async_copy::CopyShape;
using scanlab::sim::async_copy::PipelineRole;

void begin_block(Block& b);
// Copies whose round never completed are reported: their block's shared memory goes while they
// may still write it.
void end_block(Block& b);

// make_pipeline(), before the group syncs: thread t joins the pipeline at `state` in `role`.
void join(Thread* t, std::uintptr_t state, unsigned stages, PipelineRole role, std::uintptr_t pc);
// make_pipeline(), by the group's first thread after every thread joined: the stages' barriers,
// expecting the roles' counts.
void make(Thread* t, std::uintptr_t state, std::uintptr_t pc);
// producer_acquire() / consumer_wait(): whether the stage's round of this parity has completed;
// if not, t gives the processor back.
bool acquire(Thread* t, std::uintptr_t state, unsigned stage, bool parity, PipelineRole role, std::uintptr_t pc);
bool wait(Thread* t, std::uintptr_t state, unsigned stage, bool parity, PipelineRole role, std::uintptr_t pc);
// producer_commit() / consumer_release(): t's arrival on the stage's produced / consumed barrier.
void commit(Thread* t, std::uintptr_t state, unsigned stage, PipelineRole role, std::uintptr_t pc);
void release(Thread* t, std::uintptr_t state, unsigned stage, PipelineRole role, std::uintptr_t pc);
// cuda::memcpy_async with the pipeline: a copy from global to shared memory into the stage that t
// acquired last, completing with that stage's round.
void copy(Thread* t, std::uintptr_t state, unsigned stage, std::uintptr_t destination, std::uintptr_t source,
          std::size_t bytes, CopyShape shape, std::size_t alignment, std::uintptr_t pc);
// quit(): whether t was the last of the pipeline's threads (which releases its shared state).
bool quit(Thread* t, std::uintptr_t state, std::uintptr_t pc);

}  // namespace scanlab::sim::detail::block_pipeline
