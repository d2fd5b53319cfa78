// A cuda::pipeline shared by the threads of a block, as libcu++ spells it (<cuda/pipeline>):
// cuda::pipeline_shared_state<cuda::thread_scope_block, N> in shared memory,
// cuda::make_pipeline(group, &state) (every thread both producer and consumer), with a
// cuda::pipeline_role per thread or with a count of producers (the group's first ranks),
// producer_acquire / producer_commit, consumer_wait(_for/_until) / consumer_release, quit, and
// cuda::memcpy_async into the stage a producer acquired (a thread's copy, or a group's, made once
// by its thread of rank 0). As in libcu++, each stage is a pair of barrier objects in the state:
// producers commit to one and consumers wait for it; consumers release the other and producers
// acquire it. The runtime (runtime/collectives/block_pipeline.hpp) keeps those barriers and runs
// the copies, so that a read of a stage before its wait, or a copy into a buffer that consumers
// still read, is a race at the program's lines, and a wait nobody will satisfy a deadlock.
//
// A pipeline of any other scope (device, system) is refused where it is made, with one message:
// the pipeline it would make has every member and takes every copy, doing nothing, so that the
// program's later uses of it add no errors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <scanlab/sim/pipeline_copies.hpp>

#define SCANLAB_SIM_PIPELINE_ENTRY __attribute__((noinline))
#define SCANLAB_SIM_PIPELINE_CALLER reinterpret_cast<::std::uintptr_t>(__builtin_return_address(0))

namespace cuda {

enum class pipeline_role { producer, consumer };

// The stages' barriers: 8 bytes each, whose state the runtime keeps by address (consumed[0..N),
// then produced[0..N)).
template <thread_scope Scope, ::std::uint8_t StagesCount>
class pipeline_shared_state {
  static_assert(Scope != Scope,
                "cuda::pipeline_shared_state of another scope than thread_scope_block is not supported by the scanlab "
                "simulator: a pipeline's state lies in the shared memory of one block, shared by its threads "
                "(cuda::pipeline_shared_state<cuda::thread_scope_block, N>)");
};
template <::std::uint8_t StagesCount>
class pipeline_shared_state<thread_scope_block, StagesCount> {
  static_assert(StagesCount >= 1, "a pipeline has at least one stage");

 public:
  pipeline_shared_state() = default;
  pipeline_shared_state(const pipeline_shared_state&) = delete;
  pipeline_shared_state& operator=(const pipeline_shared_state&) = delete;

 private:
  alignas(8) ::std::uint64_t barriers_[2 * StagesCount];  // never read or written by the program
};

// A pipeline of a refused scope: every member, doing nothing (see above).
template <thread_scope Scope>
class pipeline {
 public:
  bool quit() { return true; }
  void producer_acquire() {}
  void producer_commit() {}
  void consumer_wait() {}
  void consumer_release() {}
  template <class Duration>
  bool consumer_wait_for(const Duration&) {
    return true;
  }
  template <class TimePoint>
  bool consumer_wait_until(const TimePoint&) {
    return true;
  }
};
template <class T, class Size, thread_scope Scope>
::std::enable_if_t<Scope != thread_scope_block && Scope != thread_scope_thread, async_contract_fulfillment> memcpy_async(T*, const T*, Size,
                                                                                       pipeline<Scope>&) {
  return async_contract_fulfillment::none;
}
template <class Group, class T, class Size, thread_scope Scope>
::std::enable_if_t<Scope != thread_scope_block && Scope != thread_scope_thread, async_contract_fulfillment> memcpy_async(const Group&, T*, const T*,
                                                                                       Size, pipeline<Scope>&) {
  return async_contract_fulfillment::none;
}
template <::std::uint8_t Prior, thread_scope Scope>
::std::enable_if_t<Scope != thread_scope_block && Scope != thread_scope_thread> pipeline_consumer_wait_prior(
    pipeline<Scope>&) {}
// Completing the shared state's type states the refusal at the program's line.
template <class Group, thread_scope Scope, ::std::uint8_t StagesCount, class... Rest>
::std::enable_if_t<Scope != thread_scope_block, pipeline<Scope>> make_pipeline(
    const Group&, pipeline_shared_state<Scope, StagesCount>* state, Rest...) {
  static_assert(sizeof(*state) > 0, "");
  return pipeline<Scope>();
}

// A thread's view of a block's pipeline: the stage it produces into next (head) and consumes
// next (tail), and the parity of the round each waits for, kept as libcu++ keeps them. A
// producer's first acquire of each stage waits for the round before the first, which counts as
// complete: the ring starts empty.
template <>
class pipeline<thread_scope_block> {
  using Role = scanlab::sim::async_copy::PipelineRole;

 public:
  // Made by make_pipeline() only.
  struct made_by_make_pipeline {};
  pipeline(made_by_make_pipeline, void* state, ::std::uint8_t stages, Role role)
      : state_(state), stages_(stages), role_(role) {}
  pipeline(pipeline&& other) noexcept
      : state_(other.state_),
        stages_(other.stages_),
        head_(other.head_),
        tail_(other.tail_),
        consumed_parity_(other.consumed_parity_),
        produced_parity_(other.produced_parity_),
        active_(other.active_),
        role_(other.role_) {
    other.active_ = false;
  }
  pipeline(const pipeline&) = delete;
  pipeline& operator=(pipeline&&) = delete;
  pipeline& operator=(const pipeline&) = delete;
  ~pipeline() {
    if (active_) quit_here(0);
  }

  SCANLAB_SIM_PIPELINE_ENTRY bool quit() { return quit_here(SCANLAB_SIM_PIPELINE_CALLER); }
  SCANLAB_SIM_PIPELINE_ENTRY void producer_acquire() {
    const ::std::uintptr_t pc = SCANLAB_SIM_PIPELINE_CALLER;
    while (!scanlab::sim::async_copy::pipeline_acquire(state_, head_, consumed_parity_, role_, pc)) {
    }
  }
  SCANLAB_SIM_PIPELINE_ENTRY void producer_commit() {
    scanlab::sim::async_copy::pipeline_commit(state_, head_, role_, SCANLAB_SIM_PIPELINE_CALLER);
    if (++head_ == stages_) head_ = 0, consumed_parity_ = !consumed_parity_;
  }
  SCANLAB_SIM_PIPELINE_ENTRY void consumer_wait() { wait_here(SCANLAB_SIM_PIPELINE_CALLER); }
  template <class Duration>
  SCANLAB_SIM_PIPELINE_ENTRY bool consumer_wait_for(const Duration&) {
    wait_here(SCANLAB_SIM_PIPELINE_CALLER);
    return true;
  }
  template <class TimePoint>
  SCANLAB_SIM_PIPELINE_ENTRY bool consumer_wait_until(const TimePoint&) {
    wait_here(SCANLAB_SIM_PIPELINE_CALLER);
    return true;
  }
  SCANLAB_SIM_PIPELINE_ENTRY void consumer_release() {
    scanlab::sim::async_copy::pipeline_release(state_, tail_, role_, SCANLAB_SIM_PIPELINE_CALLER);
    if (++tail_ == stages_) tail_ = 0, produced_parity_ = !produced_parity_;
  }

  // cuda::memcpy_async's part: a copy into the stage acquired last (the head).
  template <class Size>
  void copy(void* destination, const void* source, Size size, ::std::uintptr_t pc) {
    using promise = scanlab::sim::async_copy::size_promise<Size>;
    scanlab::sim::async_copy::pipeline_copy(state_, head_, destination, source, static_cast<::std::size_t>(size),
                                            promise::shape, promise::alignment, pc);
  }

 private:
  void wait_here(::std::uintptr_t pc) {
    while (!scanlab::sim::async_copy::pipeline_wait(state_, tail_, produced_parity_, role_, pc)) {
    }
  }
  bool quit_here(::std::uintptr_t pc) {
    active_ = false;
    return scanlab::sim::async_copy::pipeline_quit(state_, pc);
  }

  void* state_;
  ::std::uint8_t stages_;
  ::std::uint8_t head_ = 0;
  ::std::uint8_t tail_ = 0;
  bool consumed_parity_ = true;
  bool produced_parity_ = false;
  bool active_ = true;
  Role role_;
};

}  // namespace cuda

namespace scanlab::sim::async_copy {

// make_pipeline()'s three steps, as libcu++ takes them: every thread of the group joins in its
// role, the group syncs, its first thread makes the stages' barriers from the roles' counts, and
// the group syncs again before any thread uses them.
template <class Group>
::cuda::pipeline<::cuda::thread_scope_block> make_block_pipeline(const Group& group, void* state,
                                                                 ::std::uint8_t stages, PipelineRole role,
                                                                 const char* file, unsigned line,
                                                                 ::std::uintptr_t pc) {
  pipeline_join(state, stages, role, pc);
  group.sync(file, line);
  if (group.thread_rank() == 0) pipeline_make(state, pc);
  group.sync(file, line);
  using made = ::cuda::pipeline<::cuda::thread_scope_block>::made_by_make_pipeline;
  return ::cuda::pipeline<::cuda::thread_scope_block>(made{}, state, stages, role);
}

}  // namespace scanlab::sim::async_copy

namespace cuda {

// Every thread of the group both produces and consumes.
template <class Group, ::std::uint8_t StagesCount>
SCANLAB_SIM_PIPELINE_ENTRY pipeline<thread_scope_block> make_pipeline(
    const Group& group, pipeline_shared_state<thread_scope_block, StagesCount>* state, SCANLAB_SIM_SITE_PARAMS) {
  return scanlab::sim::async_copy::make_block_pipeline(group, state, StagesCount,
                                                       scanlab::sim::async_copy::PipelineRole::both, scanlab_file,
                                                       scanlab_line, SCANLAB_SIM_PIPELINE_CALLER);
}
// Each thread in the role it names.
template <class Group, ::std::uint8_t StagesCount>
SCANLAB_SIM_PIPELINE_ENTRY pipeline<thread_scope_block> make_pipeline(
    const Group& group, pipeline_shared_state<thread_scope_block, StagesCount>* state, pipeline_role role,
    SCANLAB_SIM_SITE_PARAMS) {
  using scanlab::sim::async_copy::PipelineRole;
  return scanlab::sim::async_copy::make_block_pipeline(
      group, state, StagesCount, role == pipeline_role::producer ? PipelineRole::producer : PipelineRole::consumer,
      scanlab_file, scanlab_line, SCANLAB_SIM_PIPELINE_CALLER);
}
// The group's first `producer_count` ranks produce, the others consume.
template <class Group, ::std::uint8_t StagesCount>
SCANLAB_SIM_PIPELINE_ENTRY pipeline<thread_scope_block> make_pipeline(
    const Group& group, pipeline_shared_state<thread_scope_block, StagesCount>* state, ::std::size_t producer_count,
    SCANLAB_SIM_SITE_PARAMS) {
  using scanlab::sim::async_copy::PipelineRole;
  const bool producer = static_cast<::std::size_t>(group.thread_rank()) < producer_count;
  return scanlab::sim::async_copy::make_block_pipeline(group, state, StagesCount,
                                                       producer ? PipelineRole::producer : PipelineRole::consumer,
                                                       scanlab_file, scanlab_line, SCANLAB_SIM_PIPELINE_CALLER);
}

// cuda::memcpy_async into the stage that the calling producer acquired last; the group's form
// makes the group's copy once, by its thread of rank 0.
template <class T, class Size>
SCANLAB_SIM_PIPELINE_ENTRY async_contract_fulfillment memcpy_async(T* destination, const T* source, Size size,
                                                                   pipeline<thread_scope_block>& pipe) {
  static_assert(::std::is_trivially_copyable_v<T>, "memcpy_async copies trivially copyable types");
  pipe.copy(destination, source, size, SCANLAB_SIM_PIPELINE_CALLER);
  return async_contract_fulfillment::async;
}
template <class Size>
SCANLAB_SIM_PIPELINE_ENTRY async_contract_fulfillment memcpy_async(void* destination, const void* source, Size size,
                                                                   pipeline<thread_scope_block>& pipe) {
  pipe.copy(destination, source, size, SCANLAB_SIM_PIPELINE_CALLER);
  return async_contract_fulfillment::async;
}
template <class Group, class T, class Size>
SCANLAB_SIM_PIPELINE_ENTRY async_contract_fulfillment memcpy_async(const Group& group, T* destination, const T* source,
                                                                   Size size, pipeline<thread_scope_block>& pipe) {
  static_assert(::std::is_trivially_copyable_v<T>, "memcpy_async copies trivially copyable types");
  if (group.thread_rank() == 0) pipe.copy(destination, source, size, SCANLAB_SIM_PIPELINE_CALLER);
  return async_contract_fulfillment::async;
}
template <class Group, class Size>
SCANLAB_SIM_PIPELINE_ENTRY async_contract_fulfillment memcpy_async(const Group& group, void* destination,
                                                                   const void* source, Size size,
                                                                   pipeline<thread_scope_block>& pipe) {
  if (group.thread_rank() == 0) pipe.copy(destination, source, size, SCANLAB_SIM_PIPELINE_CALLER);
  return async_contract_fulfillment::async;
}

}  // namespace cuda

#undef SCANLAB_SIM_PIPELINE_ENTRY
#undef SCANLAB_SIM_PIPELINE_CALLER
