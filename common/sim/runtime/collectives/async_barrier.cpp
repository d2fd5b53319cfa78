#include "collectives/async_barrier.hpp"

#include <algorithm>
#include <string>

#include "checks/barrier_names.hpp"
#include "checks/race_detector.hpp"
#include "findings/report.hpp"
#include "memory/memory.hpp"
#include "threads/scheduler.hpp"
#include "threads/shared_memory.hpp"

namespace scanlab::sim::detail::async_barrier {
namespace {

// What PTX allows a barrier's counts: arrivals and transaction bytes of a phase below 2^20.
constexpr std::int64_t kCountLimit = (std::int64_t{1} << 20) - 1;

[[noreturn]] void misuse(Thread* t, std::uintptr_t address, const std::string& what, const std::string& fix,
                         std::uintptr_t pc) {
  Finding f;
  f.kind = ReportKind::api_misuse;
  f.headline = what;
  f.parties.push_back(party("barrier", t, locate(pc)));
  f.details.push_back("location: " + shared_memory::describe_address(address, *t->block));
  f.details.push_back(fix);
  f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchFailure");
  report(f);
  scheduler::abort_kernel(t, cudaErrorLaunchFailure);
}

Barrier& barrier_at(Thread* t, std::uintptr_t address, std::uintptr_t pc) {
  auto& barriers = t->block->async_barriers.by_address;
  if (auto it = barriers.find(address); it != barriers.end()) return it->second;
  if (!memory::in_shared(address))
    misuse(t, address, "a barrier object outside shared memory",
           "the simulator runs cuda::barrier<cuda::thread_scope_block> objects in shared memory: declare the "
           "barrier __shared__ (or place it in dynamic shared memory)",
           pc);
  misuse(t, address, "a barrier object used before init() in this block",
         "each block has its own shared memory, so each initializes its own barriers: init(&bar, count) by one "
         "thread of the block, then __syncthreads(), before any thread arrives on it or waits for it",
         pc);
}

// Ends the current phase once its arrivals and bytes are all in: what they published becomes
// what waiters acquire, and the next phase waits for the expected arrivals again.
void complete_if_done(Barrier& r) {
  if (r.pending != 0 || r.transaction != 0) return;
  ++r.phase;
  for (std::size_t w = 0; w < r.completed.size(); ++w) r.completed[w] = std::max(r.completed[w], r.arriving[w]);
  r.arriving.fill(0);
  r.pending = r.expected;
  r.expected_bytes = r.arrived_bytes = 0;
  r.waited = false;
}

Barrier::Use& use_by(Thread* t, Barrier& r) {
  if (r.by_thread.size() <= t->linear) r.by_thread.resize(t->block->thread_count);
  return r.by_thread[t->linear];
}

// A wait that saw a phase complete: what its thread has seen of the barrier, and whether the
// wait ordered anything. A parity wait is stale when the phase it saw complete is one its thread
// had seen in an earlier wait, or the one before the first: a race report then names it
// (checks/ordering_diagnosis.hpp).
void note_wait(Thread* t, std::uintptr_t address, Barrier& r, unsigned parity, bool by_parity, std::uintptr_t pc) {
  Barrier::Use& use = use_by(t, r);
  auto& stale = t->block->async_barriers.stale_waits;
  // A pipeline keeps its own parities, and its producers' first acquire of each stage is meant
  // to pass at once: no wait of one is stale.
  if (by_parity && r.pipeline == PipelineSide::none && r.phase <= use.waits)
    stale[t->linear] = StaleWait{address, pc, parity, r.phase, use.waits};
  else if (auto it = stale.find(t->linear); it != stale.end() && it->second.barrier == address)
    stale.erase(it);
  use.waits += 1;
  use.seen = r.phase;
}

bool see_complete(Thread* t, std::uintptr_t address, Barrier& r, bool complete, unsigned parity, bool by_parity,
                  std::uintptr_t pc) {
  if (complete) {
    race_detector::acquire_for_warp(*t->block, t->warp, r.completed);
    note_wait(t, address, r, parity, by_parity, pc);
    return true;
  }
  r.waited = true;
  r.polled_at = pc;
  r.polled_by = t->linear;
  scheduler::yield(t, pc);  // a poll of a phase that has not completed: a spin-wait
  return false;
}

// Who arrived in a phase that has some of its arrivals and not all: the threads that did, and
// where. The threads that init() counts and that never come are the deadlock's cause, most often
// an arrival inside a condition that only some of them meet (`if (lane == 0)`).
std::string arrivals_of_phase(const Block& b, const Barrier& r) {
  if (r.pending == 0 || r.pending == r.expected) return "";
  std::vector<unsigned> arrived;
  std::vector<std::uintptr_t> places;
  for (unsigned linear = 0; linear < r.by_thread.size(); ++linear) {
    const Barrier::Use& use = r.by_thread[linear];
    if (use.arrived != r.phase + 1) continue;
    arrived.push_back(linear);
    if (std::find(places.begin(), places.end(), use.arrived_at) == places.end()) places.push_back(use.arrived_at);
  }
  if (arrived.empty()) return "";
  constexpr std::size_t kNamed = 4;
  std::string who;
  for (std::size_t i = 0; i < arrived.size() && i < kNamed; ++i)
    who += (i ? ", " : "") + format_index(b.threads[arrived[i]].coords.thread_idx);
  if (arrived.size() > kNamed) who += ", ...";
  std::string where;
  for (std::size_t i = 0; i < places.size() && i < 2; ++i) where += (i ? " and " : "") + barrier_names::place(places[i], "");
  return " (" + std::to_string(arrived.size()) + (arrived.size() == 1 ? " thread" : " threads") + " arrived: " + who +
         ", at " + where + "); the other " + std::to_string(r.pending) +
         " arrivals that init() counts never came in this phase: every thread it counts arrives once per phase";
}

// A pipeline's barrier that threads wait on, in the pipeline's words: the round of the stage
// they wait for, and who of those make_pipeline() counted committed or released it.
std::string pipeline_state_of(const Block& b, const Barrier& r, std::uintptr_t address) {
  const bool produced = r.pipeline == PipelineSide::produced;
  std::string s = barrier_names::barrier(b, address) + ": " +
                  (produced ? "consumers wait in consumer_wait() for its round " : "producers wait in producer_acquire() for its round ") +
                  std::to_string(r.phase) + ", which " + std::to_string(r.expected - r.pending) + " of its " +
                  std::to_string(r.expected) + (produced ? " producers have committed" : " consumers have released");
  std::vector<unsigned> came;
  std::uintptr_t came_at = 0;
  for (unsigned linear = 0; linear < r.by_thread.size(); ++linear)
    if (r.by_thread[linear].arrived == r.phase + 1) came.push_back(linear), came_at = r.by_thread[linear].arrived_at;
  if (!came.empty())
    s += " (thread " + format_index(b.threads[came[0]].coords.thread_idx) + (came.size() > 1 ? ", ..." : "") + " at " +
         barrier_names::line_of(came_at) + ")";
  return s + (produced ? "; every producer commits each stage once a round: producer_acquire(), its copies, "
                         "producer_commit(), on every path"
                       : "; every consumer releases each stage once a round: consumer_wait(), its reads, "
                         "consumer_release(), on every path");
}

// A barrier that threads wait on, in words that hold no block index: its name, its phase, what
// the phase has and lacks.
std::string state_of(const Block& b, std::uintptr_t address) {
  const Barrier& r = b.async_barriers.by_address.at(address);
  if (r.pipeline != PipelineSide::none) return pipeline_state_of(b, r, address);
  std::string s = barrier_names::barrier(b, address) + ": its phase " + std::to_string(r.phase) + " (parity " +
                  std::to_string(r.phase & 1u) + ") has " + std::to_string(r.expected - r.pending) + " of its " +
                  std::to_string(r.expected) + " expected arrivals";
  if (r.expected_bytes != 0 || r.arrived_bytes != 0 || r.transaction != 0) {
    s += ", and " + std::to_string(r.arrived_bytes) + " transaction bytes arrived of the " +
         std::to_string(r.expected_bytes) + " expected";
    if (r.transaction > 0)
      s += " (" + std::to_string(r.transaction) + " bytes never come: the copies that name the barrier deliver "
           "fewer bytes than expect_tx/arrive_tx announced)";
    else if (r.transaction < 0)
      s += " (" + std::to_string(-r.transaction) + " bytes more than announced: a phase completes only when the "
           "transaction count is exactly zero, so the bytes announced must equal the bytes the copies deliver)";
  }
  s += arrivals_of_phase(b, r);
  // A thread that waits once per phase needs, at its (w+1)th wait, phase w to complete. One that
  // polls for the other parity is waiting for a phase it should not: the wait names the wrong
  // parity. A poll for this thread's own next phase is the pipeline waiting, as it should, for
  // something else that is stuck; it is not blamed.
  if (r.waited_parity < 2 && r.polled_by < r.by_thread.size()) {
    const std::uint64_t needed = r.by_thread[r.polled_by].waits;
    if ((needed & 1u) != r.waited_parity)
      s += "; thread " + format_index(b.threads[r.polled_by].coords.thread_idx) + " polls it for parity " +
           std::to_string(r.waited_parity) + ", but it has seen " + std::to_string(needed) +
           " of its phases complete, so the phase it needs is phase " + std::to_string(needed) + " (parity " +
           std::to_string(needed & 1u) + "): try_wait_parity(p) waits until the phase of parity p completes";
  }
  return s;
}

}  // namespace

void begin_block(Block& b) { b.async_barriers.by_address.clear(); }

void init(Thread* t, std::uintptr_t address, std::int64_t expected, std::uintptr_t pc) {
  if (expected < 1 || expected > kCountLimit)
    misuse(t, address, "init() of a barrier with " + std::to_string(expected) + " expected arrivals",
           "a barrier expects from 1 to 2^20 - 1 arrivals a phase", pc);
  auto& barriers = t->block->async_barriers.by_address;
  std::uint32_t ordinal = 0;  // the barriers an init() in a loop made before this one
  for (const auto& [other, earlier] : barriers) ordinal += other != address && earlier.initialized_at == pc;
  Barrier& r = barriers[address];
  r = Barrier{};
  r.initialized_at = pc;
  r.init_ordinal = ordinal;
  r.expected = r.pending = static_cast<std::uint32_t>(expected);
  t->stored_since_yield = true;
}

void init_for_pipeline(Thread* t, std::uintptr_t address, std::int64_t expected, PipelineSide side, unsigned stage,
                       std::uintptr_t state, std::uintptr_t pc) {
  init(t, address, expected, pc);
  Barrier& r = t->block->async_barriers.by_address[address];
  r.pipeline = side;
  r.stage = static_cast<std::uint8_t>(stage);
  r.pipeline_state = state;
}

std::uint64_t arrive(Thread* t, std::uintptr_t address, std::int64_t count, std::int64_t bytes, std::uintptr_t pc) {
  Barrier& r = barrier_at(t, address, pc);
  if (count < 1 || bytes < 0 || bytes > kCountLimit)
    misuse(t, address, "arrive() on a barrier with an arrival count of " + std::to_string(count) + " and " +
                           std::to_string(bytes) + " transaction bytes",
           "an arrival counts 1 or more, and announces from 0 to 2^20 - 1 bytes", pc);
  if (count > r.pending)
    misuse(t, address, "arrive() of " + std::to_string(count) + " on a barrier whose phase " +
                           std::to_string(r.phase) + " awaits only " + std::to_string(r.pending) + " more arrivals",
           "a phase completes when its expected arrivals have come: arrive no more often than init() expects, "
           "and wait for the phase to complete before arriving for the next one",
           pc);
  const std::uint64_t token = r.phase;
  race_detector::publish_warp(*t->block, t->warp, r.arriving);
  Barrier::Use& use = use_by(t, r);
  use.arrived = r.phase + 1;
  use.arrived_at = pc;
  use.arrival = ++t->block->async_barriers.arrivals;
  // The first arrival after a bulk store was issued: what a report of the store's source
  // changing names as the release that came too early.
  if (auto it = t->block->bulk_stores.in_flight.find(t->linear); it != t->block->bulk_stores.in_flight.end())
    for (bulk_copy::PendingStore& store : it->second)
      if (!store.released_at) store.released_at = pc, store.released_barrier = address;
  r.transaction += bytes;
  r.expected_bytes += static_cast<std::uint64_t>(bytes);
  r.pending -= static_cast<std::uint32_t>(count);
  t->stored_since_yield = true;
  complete_if_done(r);
  return token;
}

void expect_bytes(Thread* t, std::uintptr_t address, std::int64_t bytes, std::uintptr_t pc) {
  Barrier& r = barrier_at(t, address, pc);
  if (bytes < 0 || bytes > kCountLimit)
    misuse(t, address, "expect_tx() of " + std::to_string(bytes) + " bytes on a barrier",
           "a phase's transaction count is from 0 to 2^20 - 1 bytes", pc);
  r.transaction += bytes;
  r.expected_bytes += static_cast<std::uint64_t>(bytes);
  t->stored_since_yield = true;
}

void drop(Thread* t, std::uintptr_t address, std::uintptr_t pc) {
  Barrier& r = barrier_at(t, address, pc);
  if (r.expected == 0 || r.pending == 0)
    misuse(t, address, "arrive_and_drop() on a barrier that expects no more arrivals",
           "drop out of a barrier only once per thread that was counted in init()", pc);
  --r.expected;
  static_cast<void>(arrive(t, address, 1, 0, pc));
}

void deliver_bytes(Thread* t, std::uintptr_t address, std::int64_t bytes, std::uintptr_t pc) {
  Barrier& r = barrier_at(t, address, pc);
  race_detector::publish_warp(*t->block, t->warp, r.arriving);
  r.transaction -= bytes;
  r.arrived_bytes += static_cast<std::uint64_t>(bytes);
  t->stored_since_yield = true;
  complete_if_done(r);
}

bool test_parity(Thread* t, std::uintptr_t address, unsigned parity, std::uintptr_t pc) {
  Barrier& r = barrier_at(t, address, pc);
  r.waited_parity = static_cast<std::uint8_t>(parity & 1u);
  // The phase of parity p has completed while the current phase has the other parity.
  return see_complete(t, address, r, (r.phase & 1u) != (parity & 1u), parity & 1u, true, pc);
}

bool test_token(Thread* t, std::uintptr_t address, std::uint64_t token, std::uintptr_t pc) {
  Barrier& r = barrier_at(t, address, pc);
  r.waited_parity = 2;
  return see_complete(t, address, r, r.phase > token, 0, false, pc);
}

bool polls_barrier_object(const Thread& t) {
  if (!t.last_yield_pc) return false;
  for (const auto& [address, r] : t.block->async_barriers.by_address)
    if (r.waited && r.polled_at == t.last_yield_pc) return true;
  return false;
}

std::vector<std::string> describe_waiting(const std::vector<Block*>& blocks, std::size_t most) {
  // One line per distinct state of a barrier that threads wait on, with the blocks in it: the
  // blocks of a persistent kernel all hang the same way, and a line per block buries the cause.
  struct State {
    std::string words;
    std::vector<uint3> blocks;
  };
  std::vector<State> states;
  for (const Block* b : blocks) {
    std::vector<std::uintptr_t> waited;
    for (const auto& [address, r] : b->async_barriers.by_address)
      if (r.waited) waited.push_back(address);
    std::sort(waited.begin(), waited.end());
    for (std::uintptr_t address : waited) {
      const std::string words = state_of(*b, address);
      auto it = std::find_if(states.begin(), states.end(), [&](const State& s) { return s.words == words; });
      if (it == states.end()) states.push_back({words, {}}), it = states.end() - 1;
      it->blocks.push_back(b->index);
    }
  }
  // A phase that some of its arrivals reached and others never will comes first: it is where the
  // wait started; the barriers with no arrival wait on it.
  std::stable_partition(states.begin(), states.end(),
                        [](const State& s) {
                          return s.words.find(" arrived: ") != std::string::npos ||
                                 s.words.find(" have committed (") != std::string::npos ||
                                 s.words.find(" have released (") != std::string::npos;
                        });
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < states.size() && lines.size() < most; ++i) {
    const State& s = states[i];
    std::string who = s.blocks.size() == 1 ? "block " + format_index(s.blocks[0])
                                           : std::to_string(s.blocks.size()) + " blocks (" + format_index(s.blocks[0]) +
                                                 (s.blocks.size() > 2 ? ", ..., " : ", ") +
                                                 format_index(s.blocks.back()) + ")";
    lines.push_back(who + " wait on " + s.words);
  }
  if (states.size() > lines.size())
    lines.push_back("and " + std::to_string(states.size() - lines.size()) + " more barriers in other states");
  return lines;
}

}  // namespace scanlab::sim::detail::async_barrier
