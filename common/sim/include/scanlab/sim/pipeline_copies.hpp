// sm_80's asynchronous copies (cp.async) as CUDA programs spell them: the primitives of
// <cuda_pipeline.h> (__pipeline_memcpy_async, __pipeline_commit, __pipeline_wait_prior), libcu++'s
// pipeline of one thread (<cuda/pipeline>: cuda::make_pipeline(), producer_acquire/commit,
// consumer_wait/release, cuda::memcpy_async with the pipeline, pipeline_consumer_wait_prior), and
// cooperative_groups::memcpy_async with cooperative_groups::wait / wait_prior. Pipelines shared by
// a block are scanlab/sim/block_pipeline.hpp's, on the runtime's side declared here. Each thread's
// copies form groups that its own waits complete; the runtime
// (runtime/collectives/async_copy_groups.hpp) lands a copy only when such a wait covers it, so
// a read of the destination before that wait, or a write to the source or destination while the
// copy is in flight, is a race at the program's lines.
//
// Each function the program calls is kept out of line and passes its return address (or, for
// the group waits, which end with the group's barrier, its call site): that is the program's own
// line, which reports name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <scanlab/sim/async_copies.hpp>
#include <scanlab/sim/cuda/call_site.hpp>

#define SCANLAB_SIM_PIPELINE_ENTRY __attribute__((noinline))
#define SCANLAB_SIM_PIPELINE_CALLER reinterpret_cast<::std::uintptr_t>(__builtin_return_address(0))

// The runtime's side (runtime/entry/async_copies.cpp).
namespace scanlab::sim::async_copy {
// What the program promised of a copy: the 4, 8 or 16 aligned bytes of a primitive, an alignment
// promised by cuda::aligned_size_t, or nothing (any size and alignment).
enum class CopyShape { primitive, promised, any };
void group_copy(void* destination, const void* source, ::std::size_t bytes, ::std::size_t zeros, CopyShape shape,
                ::std::size_t alignment, ::std::uintptr_t pc);
void group_commit(::std::uintptr_t pc);
// cp.async.wait_group: until at most `groups_left` of the thread's most recent groups are in flight.
void group_wait(unsigned groups_left, ::std::uintptr_t pc);

// A pipeline shared by a block (scanlab/sim/block_pipeline.hpp): a thread's role in it, and the
// runtime's side of make_pipeline(), of the producers' and consumers' calls and of its copies.
enum class PipelineRole : unsigned char { both, producer, consumer };
void pipeline_join(void* state, unsigned stages, PipelineRole role, ::std::uintptr_t pc);
void pipeline_make(void* state, ::std::uintptr_t pc);
bool pipeline_acquire(void* state, unsigned stage, bool parity, PipelineRole role, ::std::uintptr_t pc);
bool pipeline_wait(void* state, unsigned stage, bool parity, PipelineRole role, ::std::uintptr_t pc);
void pipeline_commit(void* state, unsigned stage, PipelineRole role, ::std::uintptr_t pc);
void pipeline_release(void* state, unsigned stage, PipelineRole role, ::std::uintptr_t pc);
void pipeline_copy(void* state, unsigned stage, void* destination, const void* source, ::std::size_t bytes,
                   CopyShape shape, ::std::size_t alignment, ::std::uintptr_t pc);
bool pipeline_quit(void* state, ::std::uintptr_t pc);

// cp.async.wait_group takes at most 8; CUDA's headers wait for 8 where asked for more.
constexpr unsigned kMostGroupsLeft = 8;
constexpr unsigned groups_left(::std::size_t asked) {
  return asked < kMostGroupsLeft ? static_cast<unsigned>(asked) : kMostGroupsLeft;
}

// The shape and alignment that a size argument promises: cuda::aligned_size_t<A> promises A.
template <class Size>
struct size_promise {
  static constexpr CopyShape shape = CopyShape::any;
  static constexpr ::std::size_t alignment = 1;
};
template <::std::size_t Alignment>
struct size_promise<::cuda::aligned_size_t<Alignment>> {
  static constexpr CopyShape shape = CopyShape::promised;
  static constexpr ::std::size_t alignment = Alignment;
};
}  // namespace scanlab::sim::async_copy

// <cuda_pipeline_primitives.h>: a copy of 4, 8 or 16 bytes from global to shared memory (its
// last `zfill` bytes filled with zeros instead), a commit of the thread's copies as a group, and a
// wait until at most `prior` of its most recent groups are in flight.
SCANLAB_SIM_PIPELINE_ENTRY inline void __pipeline_memcpy_async(void* dst_shared, const void* src_global,
                                                               ::std::size_t size_and_align, ::std::size_t zfill = 0) {
  scanlab::sim::async_copy::group_copy(dst_shared, src_global, size_and_align, zfill,
                                       scanlab::sim::async_copy::CopyShape::primitive, size_and_align,
                                       SCANLAB_SIM_PIPELINE_CALLER);
}
SCANLAB_SIM_PIPELINE_ENTRY inline void __pipeline_commit() {
  scanlab::sim::async_copy::group_commit(SCANLAB_SIM_PIPELINE_CALLER);
}
SCANLAB_SIM_PIPELINE_ENTRY inline void __pipeline_wait_prior(::std::size_t prior) {
  scanlab::sim::async_copy::group_wait(scanlab::sim::async_copy::groups_left(prior), SCANLAB_SIM_PIPELINE_CALLER);
}
// Where a copy's completion is tied to a barrier object instead: refused where it is called.
template <class Barrier>
void __pipeline_arrive_on(Barrier*) {
  static_assert(!::std::is_same_v<Barrier, Barrier>,
                "__pipeline_arrive_on (cp.async completing a barrier object) is not supported by the scanlab "
                "simulator: wait with __pipeline_wait_prior, or copy with cuda::memcpy_async and a cuda::barrier");
}

namespace cuda {

template <thread_scope Scope>
class pipeline;

// Each thread's own pipeline: its copies since the last producer_commit() form a stage, and
// consumer_wait() waits for the oldest stage not yet waited for.
template <>
class pipeline<thread_scope_thread> {
 public:
  pipeline(pipeline&&) = default;
  pipeline(const pipeline&) = delete;
  pipeline& operator=(pipeline&&) = delete;
  pipeline& operator=(const pipeline&) = delete;

  bool quit() { return true; }
  void producer_acquire() {}
  SCANLAB_SIM_PIPELINE_ENTRY void producer_commit() {
    scanlab::sim::async_copy::group_commit(SCANLAB_SIM_PIPELINE_CALLER);
    ++head_;
  }
  SCANLAB_SIM_PIPELINE_ENTRY void consumer_wait() { wait_for_oldest(SCANLAB_SIM_PIPELINE_CALLER); }
  void consumer_release() {}
  template <class Duration>
  SCANLAB_SIM_PIPELINE_ENTRY bool consumer_wait_for(const Duration&) {
    wait_for_oldest(SCANLAB_SIM_PIPELINE_CALLER);
    return true;
  }
  template <class TimePoint>
  SCANLAB_SIM_PIPELINE_ENTRY bool consumer_wait_until(const TimePoint&) {
    wait_for_oldest(SCANLAB_SIM_PIPELINE_CALLER);
    return true;
  }

 private:
  pipeline() = default;
  // The oldest stage is complete once at most the stages committed after it are in flight.
  void wait_for_oldest(::std::uintptr_t pc) {
    if (head_ == tail_) return;
    scanlab::sim::async_copy::group_wait(
        scanlab::sim::async_copy::groups_left(static_cast<::std::uint8_t>(head_ - tail_ - 1)), pc);
    ++tail_;
  }
  friend pipeline<thread_scope_thread> make_pipeline();
  template <::std::uint8_t Prior>
  friend void pipeline_consumer_wait_prior(pipeline<thread_scope_thread>& p);

  ::std::uint8_t head_ = 0;  // stages committed
  ::std::uint8_t tail_ = 0;  // stages waited for
};

inline pipeline<thread_scope_thread> make_pipeline() { return pipeline<thread_scope_thread>(); }

// Waits until at most Prior of the pipeline's most recent stages are in flight.
template <::std::uint8_t Prior>
SCANLAB_SIM_PIPELINE_ENTRY void pipeline_consumer_wait_prior(pipeline<thread_scope_thread>& p) {
  scanlab::sim::async_copy::group_wait(scanlab::sim::async_copy::groups_left(Prior), SCANLAB_SIM_PIPELINE_CALLER);
  p.tail_ = static_cast<::std::uint8_t>(p.head_ - Prior);
}

// cuda::memcpy_async into the pipeline's current stage: a copy of `size` bytes from global to
// shared memory (cuda::aligned_size_t<A> promises both addresses and the size multiples of A).
template <class T, class Size>
SCANLAB_SIM_PIPELINE_ENTRY async_contract_fulfillment memcpy_async(T* destination, const T* source, Size size,
                                                                   pipeline<thread_scope_thread>&) {
  static_assert(::std::is_trivially_copyable_v<T>, "memcpy_async copies trivially copyable types");
  using promise = scanlab::sim::async_copy::size_promise<Size>;
  scanlab::sim::async_copy::group_copy(destination, source, static_cast<::std::size_t>(size), 0, promise::shape,
                                       promise::alignment, SCANLAB_SIM_PIPELINE_CALLER);
  return async_contract_fulfillment::async;
}
template <class Size>
SCANLAB_SIM_PIPELINE_ENTRY async_contract_fulfillment memcpy_async(void* destination, const void* source, Size size,
                                                                   pipeline<thread_scope_thread>&) {
  using promise = scanlab::sim::async_copy::size_promise<Size>;
  scanlab::sim::async_copy::group_copy(destination, source, static_cast<::std::size_t>(size), 0, promise::shape,
                                       promise::alignment, SCANLAB_SIM_PIPELINE_CALLER);
  return async_contract_fulfillment::async;
}
// The group's form: the group's copy, made once by its thread of rank 0 into that thread's stage;
// every thread of the group commits its own stage as it does for its own copies.
template <class Group, class T, class Size>
SCANLAB_SIM_PIPELINE_ENTRY async_contract_fulfillment memcpy_async(const Group& group, T* destination, const T* source,
                                                                   Size size, pipeline<thread_scope_thread>&) {
  static_assert(::std::is_trivially_copyable_v<T>, "memcpy_async copies trivially copyable types");
  using promise = scanlab::sim::async_copy::size_promise<Size>;
  if (group.thread_rank() == 0)
    scanlab::sim::async_copy::group_copy(destination, source, static_cast<::std::size_t>(size), 0, promise::shape,
                                         promise::alignment, SCANLAB_SIM_PIPELINE_CALLER);
  return async_contract_fulfillment::async;
}
template <class Group, class Size>
SCANLAB_SIM_PIPELINE_ENTRY async_contract_fulfillment memcpy_async(const Group& group, void* destination,
                                                                   const void* source, Size size,
                                                                   pipeline<thread_scope_thread>&) {
  using promise = scanlab::sim::async_copy::size_promise<Size>;
  if (group.thread_rank() == 0)
    scanlab::sim::async_copy::group_copy(destination, source, static_cast<::std::size_t>(size), 0, promise::shape,
                                         promise::alignment, SCANLAB_SIM_PIPELINE_CALLER);
  return async_contract_fulfillment::async;
}

}  // namespace cuda

// <cooperative_groups/memcpy_async.h>: a group copies a range together and commits it as a
// group of asynchronous copies in each of its threads; wait(group) and wait_prior<N>(group) wait
// for the copies and then sync the group, after which every thread of it sees the data. The copy
// is made once, by the group's thread of rank 0, as the group's threads together would.
namespace cooperative_groups {

template <class Group, class T, class Size>
SCANLAB_SIM_PIPELINE_ENTRY void memcpy_async(const Group& group, T* destination, const T* source, const Size& bytes) {
  using promise = scanlab::sim::async_copy::size_promise<Size>;
  const ::std::uintptr_t pc = SCANLAB_SIM_PIPELINE_CALLER;
  if (group.thread_rank() == 0)
    scanlab::sim::async_copy::group_copy(destination, source, static_cast<::std::size_t>(bytes), 0, promise::shape,
                                         promise::alignment, pc);
  scanlab::sim::async_copy::group_commit(pc);
}
// The form that counts elements: the shorter of the two ranges is copied.
template <class Group, class T>
SCANLAB_SIM_PIPELINE_ENTRY void memcpy_async(const Group& group, T* destination, ::std::size_t destination_count,
                                             const T* source, ::std::size_t source_count) {
  const ::std::uintptr_t pc = SCANLAB_SIM_PIPELINE_CALLER;
  const ::std::size_t count = destination_count < source_count ? destination_count : source_count;
  if (group.thread_rank() == 0)
    scanlab::sim::async_copy::group_copy(destination, source, count * sizeof(T), 0,
                                         scanlab::sim::async_copy::CopyShape::any, 1, pc);
  scanlab::sim::async_copy::group_commit(pc);
}

template <unsigned Stage, class Group>
SCANLAB_SIM_PIPELINE_ENTRY void wait_prior(const Group& group, SCANLAB_SIM_SITE_PARAMS) {
  scanlab::sim::async_copy::group_wait(scanlab::sim::async_copy::groups_left(Stage), SCANLAB_SIM_PIPELINE_CALLER);
  group.sync(scanlab_file, scanlab_line);
}
template <class Group>
SCANLAB_SIM_PIPELINE_ENTRY void wait(const Group& group, SCANLAB_SIM_SITE_PARAMS) {
  scanlab::sim::async_copy::group_wait(0, SCANLAB_SIM_PIPELINE_CALLER);
  group.sync(scanlab_file, scanlab_line);
}

}  // namespace cooperative_groups

#undef SCANLAB_SIM_PIPELINE_ENTRY
#undef SCANLAB_SIM_PIPELINE_CALLER
