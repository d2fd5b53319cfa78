#include "collectives/block_pipeline.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "checks/barrier_names.hpp"
#include "collectives/async_barrier.hpp"
#include "collectives/async_copy_groups.hpp"
#include "collectives/bulk_copy.hpp"
#include "findings/report.hpp"
#include "memory/memory.hpp"
#include "threads/scheduler.hpp"
#include "threads/shared_memory.hpp"

namespace scanlab::sim::detail::block_pipeline {
namespace {

using async_barrier::PipelineSide;

// The state holds each stage's two barriers, 8 bytes each, as on the GPU: consumed[0..N), then
// produced[0..N) (scanlab/sim/block_pipeline.hpp lays them out so).
constexpr std::uintptr_t kBarrierBytes = 8;
std::uintptr_t consumed_barrier(const Pipeline&, std::uintptr_t state, unsigned stage) {
  return state + kBarrierBytes * stage;
}
std::uintptr_t produced_barrier(const Pipeline& p, std::uintptr_t state, unsigned stage) {
  return state + kBarrierBytes * (p.stages + stage);
}

[[noreturn]] void misuse(Thread* t, std::uintptr_t state, const std::string& headline, const std::string& fix,
                         std::uintptr_t pc) {
  // Every thread of every block reaches the same line: the first one reports it.
  if (first_time(ReportKind::api_misuse, pc, 0)) {
    Finding f;
    f.kind = ReportKind::api_misuse;
    f.headline = headline;
    f.parties.push_back(party("pipeline", t, locate(pc)));
    f.details.push_back("pipeline state: " + shared_memory::describe_address(state, *t->block));
    f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchFailure");
    f.fix = fix;
    report(f);
  }
  scheduler::abort_kernel(t, cudaErrorLaunchFailure);
}

Pipeline& made(Thread* t, std::uintptr_t state, std::uintptr_t pc) {
  auto& pipelines = t->block->pipelines.by_state;
  const auto found = pipelines.find(state);
  if (found == pipelines.end() || !found->second.made)
    misuse(t, state, "a block-scope cuda::pipeline used before make_pipeline() made it in this block",
           "every thread of the group calls cuda::make_pipeline(group, &state, ...) with the block's own "
           "__shared__ cuda::pipeline_shared_state before it uses the pipeline",
           pc);
  return found->second;
}

// A producer's call by a consumer, or the reverse: its arrivals would count in a barrier that
// make_pipeline() did not count it in.
void check_role(Thread* t, std::uintptr_t state, const char* call, bool producers_call, PipelineRole role,
                std::uintptr_t pc) {
  if (role == PipelineRole::both || (role == PipelineRole::producer) == producers_call) return;
  misuse(t, state,
         std::string(call) + " by a thread that make_pipeline() made a " +
             (role == PipelineRole::producer ? "producer" : "consumer"),
         "a producer calls producer_acquire(), memcpy_async and producer_commit(), a consumer consumer_wait() and "
         "consumer_release(): give each thread the role whose calls it makes (make_pipeline's role or producer "
         "count), or make the pipeline without roles, where every thread does both",
         pc);
}

void report_in_flight(Block& b, std::uintptr_t state, const Pipeline& p, unsigned stage,
                      const Pipeline::StageCopy& c, const async_barrier::Barrier& produced) {
  if (!first_time(ReportKind::api_misuse, c.at, 0)) return;
  Finding f;
  f.kind = ReportKind::api_misuse;
  f.headline = "an asynchronous copy into a pipeline stage still in flight when its block ended";
  f.parties.push_back(party("memcpy_async", &b.threads[c.thread], locate(c.at)));
  f.details.push_back("its stage, " + barrier_names::barrier(b, produced_barrier(p, state, stage)) +
                      ", completes round " + std::to_string(c.round) + " when its " +
                      std::to_string(produced.expected) + " producers have committed it, and " +
                      std::to_string(produced.expected - produced.pending) + " did");
  f.details.push_back("a block's shared memory is released when it ends, while the copy may still write it");
  f.fix = "every producer commits each stage it acquired (producer_commit() after its memcpy_async calls, on every "
          "path), and the consumers wait for it (consumer_wait()) before the block ends";
  report(f);
}

}  // namespace

void begin_block(Block& b) { b.pipelines.by_state.clear(); }

void end_block(Block& b) {
  // Most blocks have no pipeline. A block that a finding stopped (a deadlock, say) left its
  // threads where they were: their copies are not theirs to answer for. (A stopped launch's
  // blocks are torn down after their launch let go of them.)
  if (b.pipelines.by_state.empty() || b.stopped || !b.launch || b.launch->aborted) return;
  std::vector<std::uintptr_t> states;
  for (const auto& [state, p] : b.pipelines.by_state) states.push_back(state);
  std::sort(states.begin(), states.end());  // the same order of reports on every run
  for (std::uintptr_t state : states) {
    const Pipeline& p = b.pipelines.by_state.at(state);
    for (unsigned stage = 0; stage < p.copies.size(); ++stage) {
      const Pipeline::StageCopy& c = p.copies[stage];
      if (!c.at) continue;
      const auto barrier = b.async_barriers.by_address.find(produced_barrier(p, state, stage));
      if (barrier != b.async_barriers.by_address.end() && barrier->second.phase <= c.round)
        report_in_flight(b, state, p, stage, c, barrier->second);
    }
  }
}

void join(Thread* t, std::uintptr_t state, unsigned stages, PipelineRole role, std::uintptr_t pc) {
  if (!memory::in_shared(state))
    misuse(t, state, "a block-scope cuda::pipeline whose shared state is not in shared memory",
           "declare the cuda::pipeline_shared_state<cuda::thread_scope_block, N> __shared__: its stages' barriers "
           "are shared by the block's threads",
           pc);
  Pipeline& p = t->block->pipelines.by_state[state];
  if (p.made) p = Pipeline{};  // made before: a new make_pipeline() of the same state
  p.stages = stages;
  p.producers += role != PipelineRole::consumer;
  p.consumers += role != PipelineRole::producer;
  ++p.active;
  t->stored_since_yield = true;
}

void make(Thread* t, std::uintptr_t state, std::uintptr_t pc) {
  Pipeline& p = t->block->pipelines.by_state[state];
  if (p.producers == 0 || p.consumers == 0)
    misuse(t, state,
           "make_pipeline() of a block-scope pipeline with " + std::to_string(p.producers) + " producers and " +
               std::to_string(p.consumers) + " consumers",
           "a pipeline with roles needs at least one thread of each: a producer count below the group's size, or "
           "pipeline_role::producer for some threads of the group and pipeline_role::consumer for the others",
           pc);
  for (unsigned stage = 0; stage < p.stages; ++stage) {
    async_barrier::init_for_pipeline(t, consumed_barrier(p, state, stage), p.consumers, PipelineSide::consumed,
                                     stage, state, pc);
    async_barrier::init_for_pipeline(t, produced_barrier(p, state, stage), p.producers, PipelineSide::produced,
                                     stage, state, pc);
  }
  p.copies.assign(p.stages, {});
  p.made = true;
}

bool acquire(Thread* t, std::uintptr_t state, unsigned stage, bool parity, PipelineRole role, std::uintptr_t pc) {
  const Pipeline& p = made(t, state, pc);
  check_role(t, state, "producer_acquire()", true, role, pc);
  return async_barrier::test_parity(t, consumed_barrier(p, state, stage), parity, pc);
}

bool wait(Thread* t, std::uintptr_t state, unsigned stage, bool parity, PipelineRole role, std::uintptr_t pc) {
  const Pipeline& p = made(t, state, pc);
  check_role(t, state, "consumer_wait()", false, role, pc);
  return async_barrier::test_parity(t, produced_barrier(p, state, stage), parity, pc);
}

void commit(Thread* t, std::uintptr_t state, unsigned stage, PipelineRole role, std::uintptr_t pc) {
  const Pipeline& p = made(t, state, pc);
  check_role(t, state, "producer_commit()", true, role, pc);
  static_cast<void>(async_barrier::arrive(t, produced_barrier(p, state, stage), 1, 0, pc));
}

void release(Thread* t, std::uintptr_t state, unsigned stage, PipelineRole role, std::uintptr_t pc) {
  const Pipeline& p = made(t, state, pc);
  check_role(t, state, "consumer_release()", false, role, pc);
  static_cast<void>(async_barrier::arrive(t, consumed_barrier(p, state, stage), 1, 0, pc));
}

void copy(Thread* t, std::uintptr_t state, unsigned stage, std::uintptr_t destination, std::uintptr_t source,
          std::size_t bytes, CopyShape shape, std::size_t alignment, std::uintptr_t pc) {
  Pipeline& p = made(t, state, pc);
  async_copy_groups::check_shape(t, destination, source, bytes, shape, alignment, pc);
  if (bytes == 0) return;
  const std::uintptr_t produced = produced_barrier(p, state, stage);
  // The round this copy completes with is the one the stage's produced barrier is in now: the
  // first copy into a round is the one a round that never completes is reported by.
  const std::uint64_t round = t->block->async_barriers.by_address.at(produced).phase;
  Pipeline::StageCopy& first = p.copies[stage];
  if (!first.at || first.round < round) first = {pc, t->linear, round};
  bulk_copy::phase_copy(t, destination, source, bytes, produced, pc);
}

bool quit(Thread* t, std::uintptr_t state, std::uintptr_t pc) {
  Pipeline& p = made(t, state, pc);
  if (p.active > 0) --p.active;
  return p.active == 0;
}

}  // namespace scanlab::sim::detail::block_pipeline
