#include "checks/ordering_diagnosis.hpp"

#include <string>

#include "checks/barrier_names.hpp"
#include "memory/race_shadow.hpp"
#include "threads/block.hpp"
#include "threads/launch.hpp"

namespace scanlab::sim::detail::ordering_diagnosis {
namespace {

using async_barrier::Barrier;
using async_barrier::StaleWait;

// What a bulk copy's own accesses carry in the shadow (collectives/bulk_copy.cpp): the blind bit,
// which otherwise only atomics set.
bool by_bulk_copy(std::uint8_t flags) { return (flags & race_detector::kBlind) && !(flags & race_detector::kAtomic); }

std::string thread_name(const Block& b, unsigned linear) {
  return "thread " + format_index(unflatten(linear, b.launch->block));
}

const Barrier::Use* use_of(const Barrier& r, unsigned thread) {
  return thread < r.by_thread.size() ? &r.by_thread[thread] : nullptr;
}

// The function of the access at pc, for naming a wait by the line of that function that led to it.
std::string function_at(std::uintptr_t pc) { return locate(pc).function; }

bool stale_wait(const Block& b, unsigned thread, std::uintptr_t access_pc, Finding& f) {
  const auto found = b.async_barriers.stale_waits.find(thread);
  if (found == b.async_barriers.stale_waits.end()) return false;
  const StaleWait& w = found->second;
  const std::string barrier = barrier_names::barrier(b, w.barrier);
  const std::string wait = barrier_names::place(w.waited_at, function_at(access_pc));
  const unsigned needed_parity = w.needed & 1u;
  std::string seen = w.completed == 0
                         ? "no phase of it had completed yet, and a wait for parity " + std::to_string(w.parity) +
                               " counts the phase before the first as complete"
                         : "it had completed " + std::to_string(w.completed) + " phases, the last (phase " +
                               std::to_string(w.completed - 1) + ", parity " + std::to_string((w.completed - 1) & 1u) +
                               ") one that this thread had already waited for";
  f.details.push_back("the wait at " + wait + " waited for parity " + std::to_string(w.parity) + " of " + barrier +
                      " and returned at once: " + seen + "; so it ordered nothing, and " + thread_name(b, thread) +
                      " went on before the phase it needed");
  f.fix = "this is " + thread_name(b, thread) + "'s " + barrier_names::ordinal(w.needed + 1) +
          " wait on that barrier, which needs phase " + std::to_string(w.needed) + " (parity " +
          std::to_string(needed_parity) + "): wait for parity " + std::to_string(needed_parity) + " at " + wait +
          " (a barrier's phases alternate parity, so each use of it waits for the parity after the last one waited for)";
  f.fix_scope = FixScope::none;
  return true;
}

bool every_lane(const Block& b, const race_detector::RaceSide& earlier, const Thread* t, std::uintptr_t pc, std::uint8_t flags,
                bool shared, Finding& f) {
  if (earlier.pc != pc || earlier.thread / kWarpSize != t->warp || earlier.thread == t->linear) return false;
  // Both accesses are of one line; the access now says it is a bulk copy's (a global-memory
  // record keeps no blind bit, so the earlier one cannot say it).
  if (!by_bulk_copy(flags)) return false;
  f.details.push_back("lanes " + std::to_string(earlier.thread % kWarpSize) + " and " + std::to_string(t->lane) +
                      " of one warp (" + thread_name(b, earlier.thread) + " and " + thread_name(b, t->linear) +
                      ") both issued the bulk copy at " + barrier_names::line_of(pc) +
                      ": each lane's call is a copy of its own, so the same bytes are copied once per lane");
  f.fix = std::string("issue the copy from one lane: put it ") +
          (shared ? "and the arrival that announces its bytes (arrive_tx, expect_tx) "
                  : "and its commit_group and wait_group_read ") +
          "inside if (lane == 0) { ... }, after the lanes' writes of its source are fenced and synced; a "
          "__syncwarp() between the lanes' copies would not make them one copy";
  f.fix_scope = FixScope::none;
  return true;
}

// A copy into a block-scope pipeline's stage and another thread's access to the same bytes that
// the pipeline's calls did not order: the access came before the consumer's wait for the stage,
// after its release, or in a buffer of another stage than the one acquired or waited for.
bool pipeline_stage(const Block& b, const race_detector::RaceSide& earlier, const Thread* t, std::uintptr_t pc,
                    std::uint8_t flags, Finding& f) {
  if (b.pipelines.by_state.empty()) return false;
  const auto copy = [](std::uint8_t fl) { return by_bulk_copy(fl) && (fl & race_detector::kWrite); };
  if (copy(flags) == copy(earlier.flags)) return false;  // two copies, or no copy
  const bool copy_last = copy(flags);
  const std::uintptr_t copy_pc = copy_last ? pc : earlier.pc, other_pc = copy_last ? earlier.pc : pc;
  const unsigned other = copy_last ? earlier.thread : t->linear;
  const bool writes = ((copy_last ? earlier.flags : flags) & race_detector::kWrite) != 0;
  const std::string pipeline = barrier_names::pipeline(b, b.pipelines.by_state.begin()->first);
  const std::string access = thread_name(b, other) + (writes ? " wrote" : " read") + " at " +
                             barrier_names::line_of(other_pc);
  if (copy_last) {
    f.details.push_back("the copy at " + barrier_names::line_of(copy_pc) + " refills a buffer of " + pipeline +
                        " that " + access + ", and nothing orders that access before the copy: producer_acquire() "
                        "waits until every consumer has called consumer_release() for the stage, so what a consumer "
                        "does after its release, or before its consumer_wait(), is not ordered before the stage's next "
                        "copies");
    f.fix = "use a stage only between consumer_wait() and consumer_release() (release it after its last read), and "
            "copy only into the buffer of the stage that producer_acquire() gave: as many buffers as the pipeline has "
            "stages, taken in turn";
  } else {
    f.details.push_back(access + " bytes that the copy at " + barrier_names::line_of(copy_pc) +
                        " brings into a stage of " + pipeline + ", and nothing orders that access after the copy: a "
                        "consumer sees a stage's copies once its consumer_wait() for the stage has returned");
    f.fix = "call consumer_wait() before using the stage, and use only the buffer of the stage it waited for: a "
            "thread's k-th consumer_wait() is for the stage of the producers' k-th producer_commit()";
  }
  f.fix_scope = FixScope::none;
  return true;
}

// Whether thread x waited on any barrier object of the block: a consumer of some hand-off.
bool waits_on_any(const Block& b, unsigned x) {
  for (const auto& [address, r] : b.async_barriers.by_address)
    if (const Barrier::Use* u = use_of(r, x); u && u->waits != 0) return true;
  return false;
}

// Thread x arrived on a barrier of the block whose phase thread y then saw complete: x released
// to y what the barrier guards. The latest such arrival of x: its barrier's address, or 0.
std::uintptr_t released_to(const Block& b, unsigned x, unsigned y, std::uintptr_t* arrived_at) {
  std::uintptr_t found = 0;
  std::uint64_t latest = 0;
  for (const auto& [address, r] : b.async_barriers.by_address) {
    const Barrier::Use* ux = use_of(r, x);
    const Barrier::Use* uy = use_of(r, y);
    if (ux && uy && ux->arrived != 0 && uy->seen >= ux->arrived && ux->arrival > latest) {
      latest = ux->arrival;
      found = address;
      *arrived_at = ux->arrived_at;
    }
  }
  return found;
}

// Thread x's access at x_pc came after its arrival released the barrier to y, which waited for
// that phase and then made its own access: the arrival came before the access it should follow.
bool early_release(const Block& b, unsigned x, std::uint8_t x_flags, std::uintptr_t x_pc, unsigned y,
                   std::uintptr_t y_pc, Finding& f) {
  if (!waits_on_any(b, x)) return false;  // a thread that waits for nothing lacks a wait (missing_wait)
  std::uintptr_t arrived_at = 0;
  const std::uintptr_t barrier = released_to(b, x, y, &arrived_at);
  if (!barrier) return false;
  const bool bulk_store = by_bulk_copy(x_flags) && !(x_flags & race_detector::kWrite);  // its read of its source
  const std::string access = bulk_store ? "its bulk store at " + barrier_names::line_of(x_pc) + " read the stage"
                                        : "its access at " + barrier_names::line_of(x_pc);
  f.details.push_back(thread_name(b, x) + " arrived on " + barrier_names::barrier(b, barrier) + " at " +
                      barrier_names::place(arrived_at, function_at(x_pc)) + " before " + access + ", and " +
                      thread_name(b, y) + " waited for that phase, then made its access at " +
                      barrier_names::line_of(y_pc) + ": the arrival released what it guards too early");
  f.fix = bulk_store ? "release the stage only after the store has read it: commit the store "
                       "(cuda::ptx::cp_async_bulk_commit_group) and wait for its reads "
                       "(cuda::ptx::cp_async_bulk_wait_group_read) before the arrival at " +
                           barrier_names::line_of(arrived_at)
                     : "move the arrival at " + barrier_names::line_of(arrived_at) + " after the access at " +
                           barrier_names::line_of(x_pc) + ": an arrival publishes only what its thread did before it";
  f.fix_scope = FixScope::none;
  return true;
}

// Thread e (whose access came first) arrives on a barrier that thread t, whose access came
// second, never waits on, nor on any other barrier that the same init() made: t lacks the wait.
bool missing_wait(const Block& b, unsigned e, std::uintptr_t e_pc, const Thread* t, std::uintptr_t pc, Finding& f) {
  const async_barrier::Barrier* chosen = nullptr;
  std::uintptr_t chosen_address = 0;
  for (const auto& [address, r] : b.async_barriers.by_address) {
    const Barrier::Use* ue = use_of(r, e);
    if (!ue || ue->arrived == 0 || (chosen && use_of(*chosen, e)->arrival > ue->arrival)) continue;
    bool waited_on_family = false;
    for (const auto& [other, s] : b.async_barriers.by_address)
      if (s.initialized_at == r.initialized_at)
        if (const Barrier::Use* ut = use_of(s, t->linear); ut && ut->waits != 0) waited_on_family = true;
    if (waited_on_family) continue;
    chosen = &r;
    chosen_address = address;
  }
  if (!chosen) return false;
  const Barrier::Use& ue = *use_of(*chosen, e);
  f.details.push_back(thread_name(b, e) + " arrives on " + barrier_names::barrier(b, chosen_address) + " at " +
                      barrier_names::place(ue.arrived_at, function_at(e_pc)) + " after its access at " +
                      barrier_names::line_of(e_pc) + ", but " + thread_name(b, t->linear) +
                      " never waits on that barrier, nor on any other that init() made there");
  f.fix = "wait for that barrier's phase (try_wait_parity, the parity of this use) before the access at " +
          barrier_names::line_of(pc) + ": the other warp's arrival is what orders its access before this one";
  f.fix_scope = FixScope::none;
  return true;
}

}  // namespace

bool uses_barrier_objects(const Block& b) { return !b.async_barriers.by_address.empty(); }

bool explain(const race_detector::RaceSide& earlier, const Thread* t, std::uintptr_t pc, std::uint8_t flags, bool shared, Finding& f) {
  const Block& b = *t->block;
  if (earlier.block != b.linear) return false;
  if (every_lane(b, earlier, t, pc, flags, shared, f)) return true;
  if (shared && pipeline_stage(b, earlier, t, pc, flags, f)) return true;
  if (!uses_barrier_objects(b) || earlier.thread / kWarpSize == t->warp) return false;
  return stale_wait(b, t->linear, pc, f) || stale_wait(b, earlier.thread, earlier.pc, f) ||
         early_release(b, t->linear, flags, pc, earlier.thread, earlier.pc, f) ||
         early_release(b, earlier.thread, earlier.flags, earlier.pc, t->linear, pc, f) ||
         missing_wait(b, earlier.thread, earlier.pc, t, pc, f);
}

bool explain_unwritten_read(const Thread* t, std::uintptr_t pc, Finding& f) {
  return uses_barrier_objects(*t->block) && stale_wait(*t->block, t->linear, pc, f);
}

}  // namespace scanlab::sim::detail::ordering_diagnosis
