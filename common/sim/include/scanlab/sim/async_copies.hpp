// Hopper's asynchronous copies and barrier objects, as libcu++ spells them (<cuda/barrier>,
// <cuda/ptx>): cuda::barrier<cuda::thread_scope_block> with arrival and transaction counts,
// cuda::memcpy_async with such a barrier, cuda::device::memcpy_async_tx and barrier_arrive_tx /
// barrier_expect_tx, and the cuda::ptx functions for mbarrier waits, bulk copies, bulk groups
// and the async proxy's fence. The
// simulator's runtime (runtime/collectives/async_barrier.hpp, bulk_copy.hpp) keeps the barriers'
// phases and runs the copies as asynchronous agents, so that a read of a stage before its phase
// completed, or a write to one while a copy is in flight, is a race at the program's lines.
//
// Each function the program calls is kept out of line and passes its return address: that is
// the program's own line, which reports name (these are inline in libcu++ itself).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <scanlab/sim/atomic.hpp>

#define SCANLAB_SIM_ASYNC_ENTRY __attribute__((noinline))
#define SCANLAB_SIM_CALLER_PC reinterpret_cast<::std::uintptr_t>(__builtin_return_address(0))

// The runtime's side (runtime/entry/async_copies.cpp).
namespace scanlab::sim::async_copy {
void barrier_init(::std::uint64_t* barrier, ::std::ptrdiff_t expected, ::std::uintptr_t pc);
::std::uint64_t barrier_arrive(::std::uint64_t* barrier, ::std::ptrdiff_t count, ::std::ptrdiff_t bytes, ::std::uintptr_t pc);
void barrier_expect_bytes(::std::uint64_t* barrier, ::std::ptrdiff_t bytes, ::std::uintptr_t pc);
void barrier_drop(::std::uint64_t* barrier, ::std::uintptr_t pc);
// Whether the phase of this parity (or arrived on with this token) has completed; a thread
// that finds it incomplete gives the processor back, as on a GPU it would be suspended a while.
bool barrier_test_parity(::std::uint64_t* barrier, unsigned parity, ::std::uintptr_t pc);
bool barrier_test_token(::std::uint64_t* barrier, ::std::uint64_t token, ::std::uintptr_t pc);
void bulk_load(void* destination, const void* source, ::std::size_t bytes, ::std::uint64_t* barrier, ::std::uintptr_t pc);
void bulk_store(void* destination, const void* source, ::std::size_t bytes, ::std::uintptr_t pc);
// cuda::memcpy_async with a barrier: a copy into shared memory that completes with the barrier's
// current phase.
void phase_copy(void* destination, const void* source, ::std::size_t bytes, ::std::uint64_t* barrier,
                ::std::uintptr_t pc);
void bulk_commit(::std::uintptr_t pc);
void bulk_wait(unsigned groups_left, ::std::uintptr_t pc);
void proxy_fence(::std::uintptr_t pc);
}  // namespace scanlab::sim::async_copy

namespace cuda {

// A size that the program promises is a multiple of Alignment, as are both addresses.
template <::std::size_t Alignment>
struct aligned_size_t {
  static constexpr ::std::size_t align = Alignment;
  ::std::size_t value;
  explicit constexpr aligned_size_t(::std::size_t size) : value(size) {}
  constexpr operator ::std::size_t() const { return value; }
};

enum class async_contract_fulfillment { none, async };

template <thread_scope Scope, class Completion = void>
class barrier;

// A barrier object in shared memory: 8 bytes, as on the GPU, whose state the simulator keeps
// by its address.
template <>
class alignas(8) barrier<thread_scope_block, void> {
 public:
  using arrival_token = ::std::uint64_t;

  barrier() = default;
  explicit barrier(::std::ptrdiff_t expected) { init_here(expected, SCANLAB_SIM_CALLER_PC); }
  barrier(const barrier&) = delete;
  barrier& operator=(const barrier&) = delete;

  SCANLAB_SIM_ASYNC_ENTRY friend void init(barrier* b, ::std::ptrdiff_t expected) {
    b->init_here(expected, SCANLAB_SIM_CALLER_PC);
  }
  [[nodiscard]] SCANLAB_SIM_ASYNC_ENTRY arrival_token arrive(::std::ptrdiff_t update = 1) {
    return scanlab::sim::async_copy::barrier_arrive(&state_, update, 0, SCANLAB_SIM_CALLER_PC);
  }
  SCANLAB_SIM_ASYNC_ENTRY void wait(arrival_token&& token) const {
    while (!scanlab::sim::async_copy::barrier_test_token(handle(), token, SCANLAB_SIM_CALLER_PC)) {
    }
  }
  SCANLAB_SIM_ASYNC_ENTRY void wait_parity(bool parity) const {
    while (!scanlab::sim::async_copy::barrier_test_parity(handle(), parity, SCANLAB_SIM_CALLER_PC)) {
    }
  }
  [[nodiscard]] SCANLAB_SIM_ASYNC_ENTRY bool try_wait(arrival_token&& token) const {
    return scanlab::sim::async_copy::barrier_test_token(handle(), token, SCANLAB_SIM_CALLER_PC);
  }
  [[nodiscard]] SCANLAB_SIM_ASYNC_ENTRY bool try_wait_parity(bool parity) const {
    return scanlab::sim::async_copy::barrier_test_parity(handle(), parity, SCANLAB_SIM_CALLER_PC);
  }
  SCANLAB_SIM_ASYNC_ENTRY void arrive_and_wait() {
    const ::std::uintptr_t pc = SCANLAB_SIM_CALLER_PC;
    const arrival_token token = scanlab::sim::async_copy::barrier_arrive(&state_, 1, 0, pc);
    while (!scanlab::sim::async_copy::barrier_test_token(&state_, token, pc)) {
    }
  }
  SCANLAB_SIM_ASYNC_ENTRY void arrive_and_drop() { scanlab::sim::async_copy::barrier_drop(&state_, SCANLAB_SIM_CALLER_PC); }
  static constexpr ::std::ptrdiff_t max() noexcept { return (::std::ptrdiff_t{1} << 20) - 1; }

  // cuda::device::barrier_native_handle
  ::std::uint64_t* native_handle() { return &state_; }

 private:
  ::std::uint64_t* handle() const { return const_cast<::std::uint64_t*>(&state_); }
  void init_here(::std::ptrdiff_t expected, ::std::uintptr_t pc) { scanlab::sim::async_copy::barrier_init(&state_, expected, pc); }
  ::std::uint64_t state_;  // never read or written by the program: the runtime keeps the state
};

template <thread_scope Scope, class Completion>
class barrier {
  static_assert(Scope == thread_scope_block && ::std::is_void_v<Completion>,
                "cuda::barrier of another scope than thread_scope_block, or with a completion function, is not "
                "supported by the scanlab simulator: use cuda::barrier<cuda::thread_scope_block> in shared memory");
};

// cuda::memcpy_async into shared memory, tracked by a barrier: the copy completes with the
// barrier's current phase (libcu++ announces its bytes and lets the copy deliver them), so a
// thread sees the data once it has seen that phase complete. The group form copies once for
// the whole group (here by its thread of rank 0), as the group's threads together would.
template <class T, class Size>
SCANLAB_SIM_ASYNC_ENTRY async_contract_fulfillment memcpy_async(T* destination, const T* source, Size size,
                                                                barrier<thread_scope_block>& b) {
  static_assert(::std::is_trivially_copyable_v<T>, "memcpy_async copies trivially copyable types");
  scanlab::sim::async_copy::phase_copy(destination, source, static_cast<::std::size_t>(size), b.native_handle(),
                                       SCANLAB_SIM_CALLER_PC);
  return async_contract_fulfillment::async;
}
template <class Size>
SCANLAB_SIM_ASYNC_ENTRY async_contract_fulfillment memcpy_async(void* destination, const void* source, Size size,
                                                                barrier<thread_scope_block>& b) {
  scanlab::sim::async_copy::phase_copy(destination, source, static_cast<::std::size_t>(size), b.native_handle(),
                                       SCANLAB_SIM_CALLER_PC);
  return async_contract_fulfillment::async;
}
template <class Group, class T, class Size>
SCANLAB_SIM_ASYNC_ENTRY async_contract_fulfillment memcpy_async(const Group& group, T* destination, const T* source,
                                                                Size size, barrier<thread_scope_block>& b) {
  static_assert(::std::is_trivially_copyable_v<T>, "memcpy_async copies trivially copyable types");
  if (group.thread_rank() == 0)
    scanlab::sim::async_copy::phase_copy(destination, source, static_cast<::std::size_t>(size), b.native_handle(),
                                         SCANLAB_SIM_CALLER_PC);
  return async_contract_fulfillment::async;
}

namespace device {

using cuda::async_contract_fulfillment;

inline ::std::uint64_t* barrier_native_handle(barrier<thread_scope_block>& b) { return b.native_handle(); }

[[nodiscard]] SCANLAB_SIM_ASYNC_ENTRY inline barrier<thread_scope_block>::arrival_token barrier_arrive_tx(
    barrier<thread_scope_block>& b, ::std::ptrdiff_t arrive_count_update, ::std::ptrdiff_t transaction_count_update) {
  return scanlab::sim::async_copy::barrier_arrive(b.native_handle(), arrive_count_update, transaction_count_update,
                                                  SCANLAB_SIM_CALLER_PC);
}

SCANLAB_SIM_ASYNC_ENTRY inline void barrier_expect_tx(barrier<thread_scope_block>& b,
                                                      ::std::ptrdiff_t transaction_count_update) {
  scanlab::sim::async_copy::barrier_expect_bytes(b.native_handle(), transaction_count_update, SCANLAB_SIM_CALLER_PC);
}

// A bulk copy from global to shared memory whose bytes complete the barrier's transaction count.
template <class T, ::std::size_t Alignment>
SCANLAB_SIM_ASYNC_ENTRY async_contract_fulfillment memcpy_async_tx(T* destination, const T* source,
                                                                   aligned_size_t<Alignment> size,
                                                                   barrier<thread_scope_block>& b) {
  static_assert(::std::is_trivially_copyable_v<T>, "memcpy_async_tx copies trivially copyable types");
  static_assert(Alignment >= 16, "memcpy_async_tx needs 16-byte aligned addresses and sizes");
  scanlab::sim::async_copy::bulk_load(destination, source, size.value, b.native_handle(), SCANLAB_SIM_CALLER_PC);
  return async_contract_fulfillment::async;
}

}  // namespace device
}  // namespace cuda

namespace cuda::ptx {

// The state spaces, semantics and scopes that PTX instructions name, as tag types.
enum class dot_space { global, shared, cluster };
template <dot_space Space>
using space_t = ::std::integral_constant<dot_space, Space>;
using space_global_t = space_t<dot_space::global>;
using space_shared_t = space_t<dot_space::shared>;
using space_cluster_t = space_t<dot_space::cluster>;
inline constexpr space_global_t space_global{};
inline constexpr space_shared_t space_shared{};
inline constexpr space_cluster_t space_cluster{};

enum class dot_sem { acq_rel, acquire, relaxed, release, sc, weak };
template <dot_sem Sem>
using sem_t = ::std::integral_constant<dot_sem, Sem>;
using sem_acquire_t = sem_t<dot_sem::acquire>;
using sem_relaxed_t = sem_t<dot_sem::relaxed>;
using sem_release_t = sem_t<dot_sem::release>;
inline constexpr sem_acquire_t sem_acquire{};
inline constexpr sem_relaxed_t sem_relaxed{};
inline constexpr sem_release_t sem_release{};

enum class dot_scope { cta, cluster, gpu, sys };
template <dot_scope Scope>
using scope_t = ::std::integral_constant<dot_scope, Scope>;
using scope_cta_t = scope_t<dot_scope::cta>;
using scope_cluster_t = scope_t<dot_scope::cluster>;
inline constexpr scope_cta_t scope_cta{};
inline constexpr scope_cluster_t scope_cluster{};

template <int N>
using n32_t = ::std::integral_constant<int, N>;

// mbarrier.init, arrive, expect_tx, arrive.expect_tx, try_wait(.parity), test_wait(.parity).
SCANLAB_SIM_ASYNC_ENTRY inline void mbarrier_init(::std::uint64_t* addr, const ::std::uint32_t& count) {
  scanlab::sim::async_copy::barrier_init(addr, count, SCANLAB_SIM_CALLER_PC);
}
SCANLAB_SIM_ASYNC_ENTRY inline ::std::uint64_t mbarrier_arrive(::std::uint64_t* addr) {
  return scanlab::sim::async_copy::barrier_arrive(addr, 1, 0, SCANLAB_SIM_CALLER_PC);
}
SCANLAB_SIM_ASYNC_ENTRY inline ::std::uint64_t mbarrier_arrive(::std::uint64_t* addr, const ::std::uint32_t& count) {
  return scanlab::sim::async_copy::barrier_arrive(addr, count, 0, SCANLAB_SIM_CALLER_PC);
}
template <dot_scope Scope>
SCANLAB_SIM_ASYNC_ENTRY ::std::uint64_t mbarrier_arrive(sem_release_t, scope_t<Scope>, space_shared_t, ::std::uint64_t* addr,
                                                      const ::std::uint32_t& count = 1) {
  return scanlab::sim::async_copy::barrier_arrive(addr, count, 0, SCANLAB_SIM_CALLER_PC);
}
template <dot_scope Scope>
SCANLAB_SIM_ASYNC_ENTRY ::std::uint64_t mbarrier_arrive_expect_tx(sem_release_t, scope_t<Scope>, space_shared_t,
                                                                ::std::uint64_t* addr, const ::std::uint32_t& tx_count) {
  return scanlab::sim::async_copy::barrier_arrive(addr, 1, tx_count, SCANLAB_SIM_CALLER_PC);
}
template <dot_scope Scope, dot_space Space>
SCANLAB_SIM_ASYNC_ENTRY void mbarrier_expect_tx(sem_relaxed_t, scope_t<Scope>, space_t<Space>, ::std::uint64_t* addr,
                                                ::std::uint32_t tx_count) {
  scanlab::sim::async_copy::barrier_expect_bytes(addr, tx_count, SCANLAB_SIM_CALLER_PC);
}
SCANLAB_SIM_ASYNC_ENTRY inline bool mbarrier_try_wait_parity(::std::uint64_t* addr, const ::std::uint32_t& phase_parity) {
  return scanlab::sim::async_copy::barrier_test_parity(addr, phase_parity, SCANLAB_SIM_CALLER_PC);
}
template <dot_sem Sem, dot_scope Scope>
SCANLAB_SIM_ASYNC_ENTRY bool mbarrier_try_wait_parity(sem_t<Sem>, scope_t<Scope>, ::std::uint64_t* addr,
                                                      const ::std::uint32_t& phase_parity) {
  return scanlab::sim::async_copy::barrier_test_parity(addr, phase_parity, SCANLAB_SIM_CALLER_PC);
}
SCANLAB_SIM_ASYNC_ENTRY inline bool mbarrier_test_wait_parity(::std::uint64_t* addr, const ::std::uint32_t& phase_parity) {
  return scanlab::sim::async_copy::barrier_test_parity(addr, phase_parity, SCANLAB_SIM_CALLER_PC);
}
SCANLAB_SIM_ASYNC_ENTRY inline bool mbarrier_try_wait(::std::uint64_t* addr, const ::std::uint64_t& state) {
  return scanlab::sim::async_copy::barrier_test_token(addr, state, SCANLAB_SIM_CALLER_PC);
}
SCANLAB_SIM_ASYNC_ENTRY inline bool mbarrier_test_wait(::std::uint64_t* addr, const ::std::uint64_t& state) {
  return scanlab::sim::async_copy::barrier_test_token(addr, state, SCANLAB_SIM_CALLER_PC);
}

// fence.proxy.async: orders the thread's ordinary (generic proxy) accesses before the async
// proxy's (bulk copies) and after them.
SCANLAB_SIM_ASYNC_ENTRY inline void fence_proxy_async() { scanlab::sim::async_copy::proxy_fence(SCANLAB_SIM_CALLER_PC); }
template <dot_space Space>
SCANLAB_SIM_ASYNC_ENTRY void fence_proxy_async(space_t<Space>) {
  scanlab::sim::async_copy::proxy_fence(SCANLAB_SIM_CALLER_PC);
}

// cp.async.bulk: global to shared memory, completing a barrier's transaction bytes ...
SCANLAB_SIM_ASYNC_ENTRY inline void cp_async_bulk(space_cluster_t, space_global_t, void* dst, const void* src,
                                                  const ::std::uint32_t& size, ::std::uint64_t* smem_bar) {
  scanlab::sim::async_copy::bulk_load(dst, src, size, smem_bar, SCANLAB_SIM_CALLER_PC);
}
SCANLAB_SIM_ASYNC_ENTRY inline void cp_async_bulk(space_shared_t, space_global_t, void* dst, const void* src,
                                                  const ::std::uint32_t& size, ::std::uint64_t* smem_bar) {
  scanlab::sim::async_copy::bulk_load(dst, src, size, smem_bar, SCANLAB_SIM_CALLER_PC);
}
// ... and shared to global memory, in bulk groups.
SCANLAB_SIM_ASYNC_ENTRY inline void cp_async_bulk(space_global_t, space_shared_t, void* dst, const void* src,
                                                  const ::std::uint32_t& size) {
  scanlab::sim::async_copy::bulk_store(dst, src, size, SCANLAB_SIM_CALLER_PC);
}
SCANLAB_SIM_ASYNC_ENTRY inline void cp_async_bulk_commit_group() {
  scanlab::sim::async_copy::bulk_commit(SCANLAB_SIM_CALLER_PC);
}
// Waits until at most N of the thread's most recent bulk groups are in flight (_read: until
// they have read their sources; here a copy reads and writes when its wait comes).
template <int N>
SCANLAB_SIM_ASYNC_ENTRY void cp_async_bulk_wait_group(n32_t<N>) {
  scanlab::sim::async_copy::bulk_wait(N, SCANLAB_SIM_CALLER_PC);
}
template <int N>
SCANLAB_SIM_ASYNC_ENTRY void cp_async_bulk_wait_group_read(n32_t<N>) {
  scanlab::sim::async_copy::bulk_wait(N, SCANLAB_SIM_CALLER_PC);
}

}  // namespace cuda::ptx

#undef SCANLAB_SIM_ASYNC_ENTRY
#undef SCANLAB_SIM_CALLER_PC
