#include "threads/worker_pool.hpp"

#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <new>
#include <thread>

#include "base/settings.hpp"
#include "threads/fault_handler.hpp"

namespace scanlab::sim::detail::worker_pool {
namespace {

// A waiter spins this many times (a few microseconds) before it sleeps: phases are short, and
// a sleeping worker costs a system call to wake. With more workers than free cores (tests run
// side by side), the sleep keeps waiting workers from taking the cores of working ones.
constexpr unsigned kSpinsBeforeSleep = 2000;

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// The kernel's wait queue on a 32-bit word (what C++20's atomic wait is made of; the runtime is
// C++17, like the code it runs).
static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t), "futex words are plain 32-bit words");
void sleep_while(const std::atomic<std::uint32_t>& word, std::uint32_t seen) {
  syscall(SYS_futex, reinterpret_cast<const std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, seen, nullptr, nullptr, 0);
}
void wake_all(std::atomic<std::uint32_t>& word) {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, INT32_MAX, nullptr, nullptr, 0);
}

template <class Done>
void wait_until(const std::atomic<std::uint32_t>& word, Done done) {
  for (unsigned spin = 0; spin < kSpinsBeforeSleep; ++spin) {
    if (done(word.load(std::memory_order_acquire))) return;
    cpu_relax();
  }
  for (std::uint32_t seen = word.load(std::memory_order_acquire); !done(seen); seen = word.load(std::memory_order_acquire))
    sleep_while(word, seen);
}

struct Pool {
  std::atomic<std::uint32_t> generation{0};  // one more for every job handed out
  std::atomic<std::uint32_t> unfinished{0};       // helpers still running the current job
  std::atomic<std::uint32_t> turn{0};
  void (*job)(void*, unsigned) = nullptr;
  void* context = nullptr;
  unsigned workers = 0;
  unsigned helpers = 0;  // OS threads started besides the calling one

  // `seen`: the generation when it starts, which it must not take for a new job.
  void helper_loop(unsigned worker, std::uint32_t seen) {
    fault_handler::install();
    for (;;) {
      wait_until(generation, [seen](std::uint32_t g) { return g != seen; });
      seen = generation.load(std::memory_order_acquire);
      if (worker < workers) job(context, worker);
      if (unfinished.fetch_sub(1, std::memory_order_acq_rel) == 1) wake_all(unfinished);
    }
  }

  void ensure_helpers(unsigned count) {
    while (helpers < count) {
      const unsigned worker = ++helpers;
      const std::uint32_t now = generation.load(std::memory_order_acquire);
      std::thread([this, worker, now] { helper_loop(worker, now); }).detach();  // lives as long as the process
    }
  }
};

Pool& pool() {
  static Pool* p = [] {
    // A forked child has only the thread that forked: it starts helpers of its own when it needs them.
    pthread_atfork(nullptr, nullptr, [] { new (&pool()) Pool; });
    return new Pool;  // never destroyed: its threads run until the process ends
  }();
  return *p;
}

}  // namespace

unsigned configured_threads() {
  unsigned n = schedule().threads;
  if (n == 0) n = std::max(1u, std::thread::hardware_concurrency());
  return std::min(n, kMaxOsThreads);
}

void run_on_each(unsigned workers, void (*job)(void*, unsigned), void* context) {
  if (workers <= 1) {
    job(context, 0);
    return;
  }
  Pool& p = pool();
  p.ensure_helpers(workers - 1);
  p.job = job;
  p.context = context;
  p.workers = workers;
  p.unfinished.store(p.helpers, std::memory_order_relaxed);  // every helper answers, idle or not
  p.generation.fetch_add(1, std::memory_order_acq_rel);
  wake_all(p.generation);
  job(context, 0);
  wait_until(p.unfinished, [](std::uint32_t n) { return n == 0; });
}

void wait_for_turn(unsigned turn) {
  wait_until(pool().turn, [turn](std::uint32_t t) { return t == turn; });
}

void next_turn() {
  pool().turn.fetch_add(1, std::memory_order_acq_rel);
  wake_all(pool().turn);
}

void reset_turns() { pool().turn.store(0, std::memory_order_relaxed); }

}  // namespace scanlab::sim::detail::worker_pool
