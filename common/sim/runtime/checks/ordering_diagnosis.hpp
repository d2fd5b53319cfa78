// What the program used to order two racing accesses of one block, and where that broke: the fix
// of a race comes from the program's own synchronization, not from the finding's kind. Each rule
// below names the line that broke the ordering; where none applies, the race report falls back to
// the narrowest barrier that every thread involved reaches (race_report.cpp), and a rule that
// cannot name the ordering says nothing rather than something wrong.
//
//   stale wait        a parity wait that returned at once, for a phase its thread had already seen
//                     complete (or the one before the first): named with the parity this use needed;
//   every lane        a bulk copy issued by every lane of a warp where one lane must issue it;
//   early release     an access (a bulk store's read of its stage, say) after its thread's arrival
//                     released the barrier to a thread that waited for that phase and then wrote;
//   missing wait      an access after another warp's access and its arrival on a barrier that the
//                     accessing thread never waits on (nor on any barrier the same init() made);
//   pipeline stage    a copy into a block-scope pipeline's stage and an access that the consumers'
//                     consumer_wait() and consumer_release() do not order (comes before the
//                     others, since a pipeline's own arrivals name no line the program got wrong).
#pragma once

#include <cstdint>

#include "checks/race_report.hpp"
#include "findings/report.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::detail::ordering_diagnosis {

// Fills f's details, fix and fix_scope where a rule applies to the race between `earlier` and
// thread t's access at `pc` (both of t's block); returns whether one did.
bool explain(const race_detector::RaceSide& earlier, const Thread* t, std::uintptr_t pc, std::uint8_t flags, bool shared, Finding& f);

// A read of shared memory that nothing wrote, by a thread whose last wait on a barrier object
// ordered nothing (a stale wait): fills f's details and fix with that wait; returns whether it did.
bool explain_unwritten_read(const Thread* t, std::uintptr_t pc, Finding& f);

// Whether the block orders its warps with barrier objects (a warp-specialized kernel): then a
// block-wide barrier is no fix, since some warps never reach the code that races.
bool uses_barrier_objects(const Block& b);

}  // namespace scanlab::sim::detail::ordering_diagnosis
