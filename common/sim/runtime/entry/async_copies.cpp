// Entry points of Hopper's barrier objects and bulk asynchronous copies
// (scanlab/sim/async_copies.hpp, behind <cuda/barrier> and <cuda/ptx>), of sm_80's per-thread
// copies in groups (scanlab/sim/pipeline_copies.hpp, behind <cuda_pipeline.h>, <cuda/pipeline>
// and <cooperative_groups/memcpy_async.h>) and of pipelines shared by a block
// (scanlab/sim/block_pipeline.hpp, behind <cuda/pipeline>): each names the calling
// CUDA thread and the program's line, and hands over to the barrier and copy modules.
#include "scanlab/sim/async_copies.hpp"
#include "scanlab/sim/pipeline_copies.hpp"

#include <string>

#include "collectives/async_barrier.hpp"
#include "collectives/async_copy_groups.hpp"
#include "collectives/block_pipeline.hpp"
#include "collectives/bulk_copy.hpp"
#include "findings/report.hpp"
#include "threads/scheduler.hpp"
#include "threads/thread.hpp"

namespace scanlab::sim::async_copy {
namespace {

using detail::Thread;

// The CUDA thread that called, or null (reported) where host code called a device function. A
// thread just back from its cross-block operation first goes back beside the other blocks, as
// a plain access does: these operations touch only its block's shared memory.
Thread* caller(const char* function, std::uintptr_t pc) {
  Thread* t = detail::current_thread;
  if (!t) {
    detail::Finding f;
    f.kind = ReportKind::unsupported;
    f.headline = std::string(function) + "() called from host code";
    f.parties.push_back(detail::host_party("call", detail::locate(pc)));
    detail::report(f);
    return nullptr;
  }
  detail::scheduler::leave_serial_turn(t);
  return t;
}

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

}  // namespace

void barrier_init(std::uint64_t* barrier, std::ptrdiff_t expected, std::uintptr_t pc) {
  if (Thread* t = caller("cuda::barrier init", pc)) detail::async_barrier::init(t, address(barrier), expected, pc);
}

std::uint64_t barrier_arrive(std::uint64_t* barrier, std::ptrdiff_t count, std::ptrdiff_t bytes, std::uintptr_t pc) {
  Thread* t = caller("cuda::barrier arrive", pc);
  return t ? detail::async_barrier::arrive(t, address(barrier), count, bytes, pc) : 0;
}

void barrier_expect_bytes(std::uint64_t* barrier, std::ptrdiff_t bytes, std::uintptr_t pc) {
  if (Thread* t = caller("cuda::device::barrier_expect_tx", pc))
    detail::async_barrier::expect_bytes(t, address(barrier), bytes, pc);
}

void barrier_drop(std::uint64_t* barrier, std::uintptr_t pc) {
  if (Thread* t = caller("cuda::barrier arrive_and_drop", pc)) detail::async_barrier::drop(t, address(barrier), pc);
}

bool barrier_test_parity(std::uint64_t* barrier, unsigned parity, std::uintptr_t pc) {
  Thread* t = caller("cuda::barrier wait", pc);
  return !t || detail::async_barrier::test_parity(t, address(barrier), parity, pc);
}

bool barrier_test_token(std::uint64_t* barrier, std::uint64_t token, std::uintptr_t pc) {
  Thread* t = caller("cuda::barrier wait", pc);
  return !t || detail::async_barrier::test_token(t, address(barrier), token, pc);
}

void bulk_load(void* destination, const void* source, std::size_t bytes, std::uint64_t* barrier, std::uintptr_t pc) {
  if (Thread* t = caller("cp.async.bulk", pc))
    detail::bulk_copy::load(t, address(destination), address(source), bytes, address(barrier), pc);
}

void phase_copy(void* destination, const void* source, std::size_t bytes, std::uint64_t* barrier, std::uintptr_t pc) {
  if (Thread* t = caller("cuda::memcpy_async", pc))
    detail::bulk_copy::phase_copy(t, address(destination), address(source), bytes, address(barrier), pc);
}

void bulk_store(void* destination, const void* source, std::size_t bytes, std::uintptr_t pc) {
  if (Thread* t = caller("cp.async.bulk", pc)) detail::bulk_copy::store(t, address(destination), address(source), bytes, pc);
}

void bulk_commit(std::uintptr_t pc) {
  if (Thread* t = caller("cp.async.bulk.commit_group", pc)) detail::bulk_copy::commit(t);
}

void bulk_wait(unsigned groups_left, std::uintptr_t pc) {
  if (Thread* t = caller("cp.async.bulk.wait_group", pc)) detail::bulk_copy::wait(t, groups_left, pc);
}

void proxy_fence(std::uintptr_t pc) {
  if (Thread* t = caller("fence.proxy.async", pc)) detail::bulk_copy::proxy_fence(t);
}

void group_copy(void* destination, const void* source, std::size_t bytes, std::size_t zeros, CopyShape shape,
                std::size_t alignment, std::uintptr_t pc) {
  if (Thread* t = caller("cp.async", pc))
    detail::async_copy_groups::issue(t, address(destination), address(source), bytes, zeros, shape, alignment, pc);
}

void group_commit(std::uintptr_t pc) {
  if (Thread* t = caller("cp.async.commit_group", pc)) detail::async_copy_groups::commit(t);
}

void group_wait(unsigned groups_left, std::uintptr_t pc) {
  if (Thread* t = caller("cp.async.wait_group", pc)) detail::async_copy_groups::wait(t, groups_left, pc);
}

void pipeline_join(void* state, unsigned stages, PipelineRole role, std::uintptr_t pc) {
  if (Thread* t = caller("cuda::make_pipeline", pc)) detail::block_pipeline::join(t, address(state), stages, role, pc);
}

void pipeline_make(void* state, std::uintptr_t pc) {
  if (Thread* t = caller("cuda::make_pipeline", pc)) detail::block_pipeline::make(t, address(state), pc);
}

bool pipeline_acquire(void* state, unsigned stage, bool parity, PipelineRole role, std::uintptr_t pc) {
  Thread* t = caller("cuda::pipeline producer_acquire", pc);
  return !t || detail::block_pipeline::acquire(t, address(state), stage, parity, role, pc);
}

bool pipeline_wait(void* state, unsigned stage, bool parity, PipelineRole role, std::uintptr_t pc) {
  Thread* t = caller("cuda::pipeline consumer_wait", pc);
  return !t || detail::block_pipeline::wait(t, address(state), stage, parity, role, pc);
}

void pipeline_commit(void* state, unsigned stage, PipelineRole role, std::uintptr_t pc) {
  if (Thread* t = caller("cuda::pipeline producer_commit", pc))
    detail::block_pipeline::commit(t, address(state), stage, role, pc);
}

void pipeline_release(void* state, unsigned stage, PipelineRole role, std::uintptr_t pc) {
  if (Thread* t = caller("cuda::pipeline consumer_release", pc))
    detail::block_pipeline::release(t, address(state), stage, role, pc);
}

void pipeline_copy(void* state, unsigned stage, void* destination, const void* source, std::size_t bytes,
                   CopyShape shape, std::size_t alignment, std::uintptr_t pc) {
  if (Thread* t = caller("cuda::memcpy_async", pc))
    detail::block_pipeline::copy(t, address(state), stage, address(destination), address(source), bytes, shape,
                                 alignment, pc);
}

bool pipeline_quit(void* state, std::uintptr_t pc) {
  // The pipeline's destructor quits too, also where a stopped kernel's threads are unwound, with
  // no CUDA thread running: then there is nothing left to quit.
  if (!detail::current_thread) return true;
  Thread* t = caller("cuda::pipeline quit", pc);
  return detail::block_pipeline::quit(t, address(state), pc);
}

}  // namespace scanlab::sim::async_copy
