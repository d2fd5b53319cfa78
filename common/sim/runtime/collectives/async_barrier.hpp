// Barrier objects in shared memory, as Hopper code uses them (cuda::barrier<thread_scope_block>,
// the mbarrier of PTX): arrival counts, phases, and transaction counts. A phase completes when
// its expected arrivals have come and the bytes announced for it (expect_tx, arrive_tx) have been
// delivered by the copies that name the barrier. A thread that sees a phase complete is ordered
// after everything the phase's arrivals and copies did (race_detector::publish_warp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "threads/block.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::async_barrier {

void begin_block(Block& b);

// init(&barrier, expected): a new barrier at `address` whose phases wait for `expected` arrivals.
void init(Thread* t, std::uintptr_t address, std::int64_t expected, std::uintptr_t pc);
// init() of one of a block-scope pipeline's barriers (block_pipeline.cpp): named, waited for and
// described as that pipeline's stage.
void init_for_pipeline(Thread* t, std::uintptr_t address, std::int64_t expected, PipelineSide side, unsigned stage,
                       std::uintptr_t state, std::uintptr_t pc);
// `count` arrivals of thread t, after announcing `bytes` more transaction bytes for the current
// phase; returns the phase arrived on (the arrival token).
std::uint64_t arrive(Thread* t, std::uintptr_t address, std::int64_t count, std::int64_t bytes, std::uintptr_t pc);
// expect_tx: `bytes` more transaction bytes for the current phase, with no arrival.
void expect_bytes(Thread* t, std::uintptr_t address, std::int64_t bytes, std::uintptr_t pc);
// arrive_and_drop: one arrival, and one fewer expected in every later phase.
void drop(Thread* t, std::uintptr_t address, std::uintptr_t pc);
// What a copy issued by thread t delivered to the barrier: `bytes` of the current phase's
// transaction count, and what the copy wrote, published with them.
void deliver_bytes(Thread* t, std::uintptr_t address, std::int64_t bytes, std::uintptr_t pc);
// try_wait.parity: whether the phase of this parity has completed (the current phase has the
// other parity). If so t's warp acquires what it published; if not, t gives the processor back,
// as a spin-wait does.
bool test_parity(Thread* t, std::uintptr_t address, unsigned parity, std::uintptr_t pc);
// try_wait with an arrival token: whether the phase arrived on has completed.
bool test_token(Thread* t, std::uintptr_t address, std::uint64_t token, std::uintptr_t pc);
// For a deadlock report: the barriers of these blocks that a thread waited on and whose phase
// did not complete, named by their init() and with their arrivals, transaction bytes and phase,
// one line per distinct state with the blocks in it, at most `most` lines.
std::vector<std::string> describe_waiting(const std::vector<Block*>& blocks, std::size_t most);
// Whether thread t spins on a barrier object of its block (its last poll was of one): it waits
// for threads of its own block, not for another block.
bool polls_barrier_object(const Thread& t);

}  // namespace scanlab::sim::detail::async_barrier
