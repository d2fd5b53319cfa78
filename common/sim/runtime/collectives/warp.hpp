// Warp intrinsics (__syncwarp, votes, shuffles) as a real rendezvous of the lanes named in the
// mask: nothing assumes that a warp runs in lockstep.
#pragma once

#include <cstdint>

#include "base/site.hpp"
#include "threads/block.hpp"

namespace scanlab::sim::detail::warp {

void begin_block(Block& b);

// Every lane named in `mask` arrives with `value` (and a source lane or delta for shuffles);
// returns this lane's result once all have arrived. `name` is what reports call it.
std::uint64_t collective(CollectiveKind kind, unsigned mask, std::uint64_t value, int argument, int width,
                         const char* name, Site site);

// coalesced_threads(): the lanes of the caller's warp that arrive at this call site. The group
// forms when every live lane of the warp is here, or when nothing else in the block can run
// (the other lanes wait at a barrier or elsewhere): then it is the lanes that arrived, which is
// what a GPU gives where the warp has reconverged. Returns the group's lane mask.
unsigned coalesce(const char* name, Site site);

// Forms every coalesced group that waits for lanes, because none can come (see coalesce);
// true when any was formed.
bool form_coalesced_groups(Block& b);

// Where every thread of the block waits and two collectives of one warp wait for each other's
// lanes (different masks or kinds), reports that and stops the launch; true when it did.
bool report_mismatched_collectives(Block& b);

// Where every thread of the block waits and a collective's lanes wait for lanes of its mask that
// went past the call to a barrier (a call inside a condition), reports that as the mask's
// misuse, with the fix, and stops the launch; true when it did.
bool report_lanes_at_a_barrier(Block& b);

// A lane that exits while others wait for it in a collective leaves them waiting forever:
// reported, and the launch stops.
void lane_exited(Thread& t);

// The collective a lane waits in, for deadlock reports; null when it waits in none.
const Site* waiting_site(const Thread& t);

}  // namespace scanlab::sim::detail::warp
