// sm_80's asynchronous copies (cp.async): each thread copies words from global to shared memory
// in the background, commits what it issued as a group, and waits until at most N of its most
// recent groups are still in flight (<cuda_pipeline.h>, cuda::pipeline<thread_scope_thread>,
// cooperative_groups::memcpy_async). Unlike a bulk copy, no barrier object tracks the copy: it
// belongs to its thread alone.
// - A copy lands when a wait of its thread covers its group: only then is the destination
//   written, as a write of the issuing thread at the copy's line, so that another thread sees
//   the data only through a barrier that follows the wait (the race detector's ordinary rule).
// - Any access to the destination between the issue and the landing, by any thread (the issuing
//   one too), is a race with the copy, and so is a write to its source by the copy's block: the
//   landing finds them in the race detector's shadow, made after the copy's issue.
// - A copy still in flight when its thread exits is reported, as a bulk store is, and lands when
//   its block ends.
#pragma once

#include <cstddef>
#include <cstdint>

#include "scanlab/sim/pipeline_copies.hpp"
#include "threads/block.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::async_copy_groups {

// The block's copies in flight are forgotten (begin) or reported and landed (end); called with
// the bulk copies' hooks (bulk_copy.cpp), which the launch runs for every block.
void begin_block(Block& b);
void end_block(Block& b);

// What the caller promised of a copy's shape, which decides what the GPU refuses: the 4, 8 or 16
// bytes of __pipeline_memcpy_async, aligned to their size (primitive); addresses and size
// multiples of the A of a cuda::aligned_size_t<A> (promised); any size and alignment (any).
using scanlab::sim::async_copy::CopyShape;

// What the GPU refuses of a cp.async copy's shape (a copy other than from global to shared memory,
// a misaligned one), reported at `pc` and stopping the kernel; block-scope pipelines' copies are
// cp.async copies too (block_pipeline.cpp).
void check_shape(Thread* t, std::uintptr_t destination, std::uintptr_t source, std::size_t bytes, CopyShape shape,
                 std::size_t alignment, std::uintptr_t pc);

// A copy of `bytes` from global memory at `source` to shared memory at `destination`, issued by
// thread t at `pc` into its group not yet committed; the last `zeros` bytes of the destination
// are filled with zeros instead (the zfill of __pipeline_memcpy_async). `alignment` is the size
// (primitive) or the promise (promised).
void issue(Thread* t, std::uintptr_t destination, std::uintptr_t source, std::size_t bytes, std::size_t zeros,
           CopyShape shape, std::size_t alignment, std::uintptr_t pc);
// cp.async.commit_group: t's copies issued since its last commit form a group.
void commit(Thread* t);
// cp.async.wait_group N: the copies of t's groups older than its `groups_left` most recent ones
// land; copies not yet committed are not waited for.
void wait(Thread* t, unsigned groups_left, std::uintptr_t pc);

}  // namespace scanlab::sim::detail::async_copy_groups
