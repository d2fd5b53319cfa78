#include "threads/fault_handler.hpp"

#include <execinfo.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/settings.hpp"
#include "findings/call_chain.hpp"
#include "findings/report.hpp"
#include "threads/block.hpp"
#include "threads/plain_poll.hpp"
#include "threads/scheduler.hpp"
#include "threads/thread.hpp"

extern "C" void __sanitizer_cov_trace_pc();  // checks/counters.cpp

namespace scanlab::sim::detail::fault_handler {
namespace {

constexpr std::size_t kAlternateStackBytes = 256 * 1024;

struct sigaction previous_segv {}, previous_bus {};

std::uintptr_t faulting_pc(void* context) {
#if defined(__x86_64__)
  return static_cast<std::uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<std::uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.pc);
#else
  (void)context;
  return 0;
#endif
}

// --- A fault of host code ------------------------------------------------------------------

constexpr unsigned kMaxHostFrames = 6;  // lines of a host fault's call chain in its report

// Whether a source file is the program's: not the C++ library's or the system's, nor the
// simulator's (its runtime and the headers that stand in for CUDA's).
bool programs_file(const std::string& file) {
  if (file.empty() || file == "??") return false;
  for (const char* foreign : {"/usr/include/", "/usr/lib/", "/usr/local/include/", "/scanlab/sim/"})
    if (file.find(foreign) != std::string::npos) return false;
  const std::string here(__FILE__);
  const std::size_t runtime_end = here.rfind('/', here.rfind('/') - 1) + 1;
  return file.compare(0, runtime_end, here, 0, runtime_end) != 0;
}

// The program's source lines on the call chain of the faulting instruction `pc`, innermost
// first, inlined calls included (one addr2line run). In a signal handler, as the kernel
// threads' report is made: the process is about to die of the fault anyway.
std::vector<SourceLocation> host_chain(std::uintptr_t pc) {
  void* stack[64];
  const int depth = backtrace(stack, 64);
  // The faulting instruction itself (source_frames takes the instruction before an address),
  // then, past the handler's own frames and the faulting one, the return addresses.
  std::vector<std::uintptr_t> addresses{pc + 1};
  int i = 0;
  while (i < depth && reinterpret_cast<std::uintptr_t>(stack[i]) != pc) ++i;
  for (++i; i < depth; ++i) addresses.push_back(reinterpret_cast<std::uintptr_t>(stack[i]));
  std::vector<SourceLocation> chain;
  for (const SourceLocation& where : call_chain::source_frames(addresses)) {
    if (where.line == 0 || !programs_file(where.file)) continue;
    if (!chain.empty() && chain.back().file == where.file && chain.back().line == where.line) continue;
    chain.push_back(where);
  }
  return chain;
}

// Host code (no CUDA thread runs on this OS thread) touched no memory at all. The report names
// the program's lines on the call chain, innermost first, so that whoever reads it can tell a
// fault in the lab's own host code from one in the code that called it.
void report_host_fault(int signal, std::uintptr_t address, void* context) {
  char where[64];
  std::snprintf(where, sizeof where, "0x%" PRIxPTR, address);
  Finding f;
  f.kind = ReportKind::out_of_bounds;
  constexpr std::uintptr_t kNullPage = 4096;
  f.headline = std::string("host code touched address ") + where +
               (address < kNullPage ? ", a null pointer" : ", which is no memory at all") + ", and the program died of " +
               (signal == SIGBUS ? "SIGBUS" : "SIGSEGV");
  const std::vector<SourceLocation> chain = host_chain(faulting_pc(context));
  for (std::size_t i = 0; i < chain.size() && i < kMaxHostFrames; ++i)
    f.parties.push_back(host_party(i == 0 ? "host fault" : "called from", chain[i]));
  if (chain.empty()) {
    // Only libraries on the chain: the faulting instruction's own place, where it has one.
    f.parties.push_back(host_party("host fault", locate(faulting_pc(context) + 1)));
    f.details.push_back("no line of the program is on the call chain: the fault is in a library");
  }
  report_before_dying(f);
  std::fflush(nullptr);
}

void on_fault(int signal, siginfo_t* info, void* context) {
  static bool reporting = false;
  Thread* t = current_thread;
  if (!t && !reporting) {
    reporting = true;
    report_host_fault(signal, reinterpret_cast<std::uintptr_t>(info->si_addr), context);
  }
  if (t && !reporting) {
    reporting = true;
    const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    char where[64];
    std::snprintf(where, sizeof where, "0x%" PRIxPTR, address);
    Finding f;
    f.kind = ReportKind::out_of_bounds;
    f.headline = std::string("a kernel thread touched address ") + where +
                 ", which is no memory at all (a null or garbage pointer, or an index far outside every buffer)";
    // The faulting instruction itself: locate() looks up the byte before the address it is given.
    f.parties.push_back(party("access", t, locate(faulting_pc(context) + 1)));
    constexpr std::uintptr_t kNullPage = 4096;
    f.details.push_back(address < kNullPage ? "location: " + std::to_string(address) + " bytes past a null pointer"
                                            : "location: no memory is mapped there, on the host or the device");
    f.details.push_back("the program stops here, as a GPU stops the kernel with an illegal-address error");
    report_before_dying(f);
    std::fflush(nullptr);
  }
  // The previous disposition (the default: the process dies of the signal) takes over when the
  // faulting instruction runs again.
  sigaction(signal, signal == SIGBUS ? &previous_bus : &previous_segv, nullptr);
}


// --- The watchdog of spins that touch no memory -------------------------------------------

// A thread counts as spinning without memory access once every sample for this long (and at
// least kSpinSamples of them) found it inside kSpinWindow bytes of its own code. Sampling starts
// only after a launch has run kQuietSeconds: a launch that ends sooner is never interrupted. A
// loop already reported in this process is known again sooner (a test runs many launches).
constexpr double kQuietSeconds = 0.3;
constexpr double kSpinSeconds = 0.6;
constexpr unsigned kSpinSamples = 10;
constexpr double kKnownSpinSeconds = 0.15;
constexpr unsigned kKnownSpinSamples = 3;
constexpr std::uintptr_t kSpinWindow = 64;
constexpr auto kSamplePeriod = std::chrono::milliseconds(50);
// The coverage hook that lab code calls at every basic block (checks/counters.cpp) returns at
// once unless counting is on: a sample inside its first bytes is taken where it returns to.
constexpr std::uintptr_t kCoverageHookBytes = 64;
constexpr unsigned kMaxWorkers = kMaxOsThreads + 1;

int sample_signal() { return SIGRTMIN + 4; }

// What the watchdog asks of one worker, and what the worker's handler last saw.
struct Worker {
  std::atomic<bool> used{false};
  pthread_t os_thread{};
  std::atomic<std::uint64_t> samples{0};
  std::atomic<Thread*> sampled_thread{nullptr};
  std::atomic<std::uintptr_t> sampled_pc{0};
  // An escape asked for: the thread and the code range it spins in.
  std::atomic<bool> escape{false};
  std::atomic<Thread*> escape_thread{nullptr};
  std::atomic<std::uintptr_t> escape_low{0}, escape_high{0};
};
Worker workers[kMaxWorkers];
std::atomic<unsigned> worker_count{0};
std::mutex register_mutex;
__thread int worker_index __attribute__((tls_model("initial-exec"))) = -1;

std::atomic<bool> kernel_running{false};
std::atomic<std::uint64_t> launch_generation{0};
std::atomic<bool> watchdog_started{false};
std::atomic<bool> escaped{false};  // a thread of the running launch was stopped where it spun

std::uintptr_t stack_pointer(void* context) {
#if defined(__x86_64__)
  return static_cast<std::uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RSP]);
#else
  (void)context;
  return 0;
#endif
}

}  // namespace
}  // namespace scanlab::sim::detail::fault_handler

// Where an escaped thread goes: entered (not called) from the signal handler with [rsp] = the
// program counter of the loop and [rsp + 8] = its stack pointer. The call frame information says
// so, so that a debugger's backtrace (and an unwinder) go on into the loop's function as from a
// signal frame. It calls scanlab_sim_spin_escape(pc), which never returns.
#if defined(__x86_64__)
extern "C" void scanlab_sim_spin_trampoline();
asm(R"(
  .text
  .p2align 4
  .type scanlab_sim_spin_trampoline,@function
scanlab_sim_spin_trampoline:
  .cfi_startproc
  .cfi_signal_frame
  .cfi_escape 0x0f, 0x03, 0x77, 0x08, 0x06
  .cfi_escape 0x10, 0x10, 0x02, 0x77, 0x00
  movq (%rsp), %rdi
  call scanlab_sim_spin_escape
  ud2
  .cfi_endproc
  .size scanlab_sim_spin_trampoline, .-scanlab_sim_spin_trampoline
)");
#endif

// The spinning CUDA thread itself, on its own stack, back in the simulator: the finding, then
// the kernel stops. The fiber is abandoned, not unwound: the loop it left is no call site.
extern "C" [[noreturn]] __attribute__((used, noinline)) void scanlab_sim_spin_escape(std::uintptr_t pc) {
  using namespace scanlab::sim;
  using namespace scanlab::sim::detail;
  using namespace scanlab::sim::detail::fault_handler;
  Thread* t = current_thread;
  Finding f;
  f.kind = ReportKind::deadlock;
  f.headline =
      "a thread spins on a value it read only once: its loop touches no memory, so it can never see another "
      "thread's store (the kernel would hang on a GPU)";
  // The loop's own instruction: locate() looks up the byte before the address it is given.
  SourceLocation where = locate(pc + 1);
  f.parties.push_back(party("spinning", t, where));
  f.details.push_back("the thread ran the loop at this line for more than half a second without a single load, store, atomic or barrier: the compiler loaded the value the "
                      "loop waits for once, before the loop, and keeps testing the copy in a register. It may: a "
                      "plain load need not be repeated, since nothing the thread does changes the value");
  f.details.push_back("the line is the one the compiler gave the loop's instructions: the loop's condition (or the "
                      "loop right after the line named)");
  f.details.push_back("the kernel was stopped; the launch reports cudaErrorLaunchTimeout");
  f.fix = "read what the loop polls so that every test loads it again: through a volatile pointer (volatile "
          "unsigned* flags), or with an atomic: cuda::atomic_ref<unsigned, cuda::thread_scope_device>(flag)"
          ".load(cuda::memory_order_acquire), or atomicAdd(&flag, 0) followed by __threadfence(); an acquire "
          "(the atomic_ref load, or the fence) is what makes the data published with the flag safe to read";
  report(f);
  // The race of the hoisted load with the store the loop waits for, held until the launch ends
  // (race_detector.cpp), is this same mistake: the race detector drops it.
  plain_poll::hoisted_spin_at(where);
  t->abandoned = true;
  escaped.store(true, std::memory_order_relaxed);
  scheduler::abort_kernel(t, cudaErrorLaunchTimeout);
}

namespace scanlab::sim::detail::fault_handler {
namespace {

bool in_coverage_hook(std::uintptr_t pc) {
  const auto hook = reinterpret_cast<std::uintptr_t>(&__sanitizer_cov_trace_pc);
  return pc >= hook && pc < hook + kCoverageHookBytes;
}

// Where the worker is: its program counter and stack pointer, except inside the coverage hook,
// which lab code calls at every basic block (a spinning loop spends most of its time there):
// there it is where the hook returns to, with the stack as the return leaves it. The hook's fast
// path pushes nothing, so the return address is on top of the stack; anywhere else the value
// read is no address in the loop, and the watchdog takes it for a thread that left the loop.
struct Place {
  std::uintptr_t pc = 0, sp = 0;
  bool from_hook = false;
};
Place place_of(void* context) {
  Place p{faulting_pc(context), stack_pointer(context), false};
  if (p.sp != 0 && in_coverage_hook(p.pc)) {
    p.pc = *reinterpret_cast<const std::uintptr_t*>(p.sp);
    p.sp += sizeof(std::uintptr_t);
    p.from_hook = true;
  }
  return p;
}

// Whether the instruction before `return_address` is a call of the coverage hook (e8 rel32).
bool after_call_of_hook(std::uintptr_t return_address) {
  const auto* code = reinterpret_cast<const unsigned char*>(return_address - 5);
  std::int32_t offset;
  std::memcpy(&offset, code + 1, sizeof offset);
  return code[0] == 0xe8 &&
         return_address + static_cast<std::intptr_t>(offset) == reinterpret_cast<std::uintptr_t>(&__sanitizer_cov_trace_pc);
}

// The worker's side: note where it is; send it into the trampoline where an escape is asked for
// and it still spins there. The escape is taken only inside the coverage hook, called from the
// loop: lab code's loops call it every round, while a worker that only seems to stay put (a
// thread of the simulator blocked in a lock or a system call while the machine is busy) is never
// there, and must not be sent anywhere.
void on_sample(int, siginfo_t*, void* context) {
  const int index = worker_index;
  if (index < 0) return;
  Worker& w = workers[index];
  Thread* t = current_thread;
  const Place p = place_of(context);
#if defined(__x86_64__)
  if (w.escape.load(std::memory_order_acquire) && t && t == w.escape_thread.load(std::memory_order_relaxed) &&
      p.pc >= w.escape_low.load(std::memory_order_relaxed) && p.pc <= w.escape_high.load(std::memory_order_relaxed) &&
      p.from_hook && after_call_of_hook(p.pc)) {
    w.escape.store(false, std::memory_order_relaxed);
    auto& registers = static_cast<ucontext_t*>(context)->uc_mcontext.gregs;
    // Below the loop's red zone (128 bytes), 16-byte aligned as a call expects.
    const std::uintptr_t frame = (p.sp - 256) & ~std::uintptr_t{15};
    reinterpret_cast<std::uintptr_t*>(frame)[0] = p.pc;
    reinterpret_cast<std::uintptr_t*>(frame)[1] = p.sp;
    registers[REG_RSP] = static_cast<greg_t>(frame);
    registers[REG_RIP] = static_cast<greg_t>(reinterpret_cast<std::uintptr_t>(&scanlab_sim_spin_trampoline));
    return;
  }
#endif
  w.sampled_thread.store(t, std::memory_order_relaxed);
  w.sampled_pc.store(p.pc, std::memory_order_relaxed);
  w.samples.fetch_add(1, std::memory_order_release);
}

// One worker's run of samples in one thread's loop.
struct Streak {
  std::uint64_t seen = 0;  // samples taken so far
  Thread* thread = nullptr;
  std::uintptr_t low = 0, high = 0;
  unsigned count = 0;
  std::chrono::steady_clock::time_point since{};
};

void watch() {
  using clock = std::chrono::steady_clock;
  static Streak streaks[kMaxWorkers];
  std::uint64_t generation = 0;
  clock::time_point launch_start{};
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> known;  // loops reported before, as code ranges
  for (;;) {
    std::this_thread::sleep_for(kSamplePeriod);
    if (!kernel_running.load(std::memory_order_acquire)) continue;
    const clock::time_point now = clock::now();
    const std::uint64_t g = launch_generation.load(std::memory_order_acquire);
    if (g != generation) {
      generation = g;
      launch_start = now;
      for (unsigned i = 0; i < kMaxWorkers; ++i) {
        streaks[i] = Streak{};
        streaks[i].seen = workers[i].samples.load(std::memory_order_acquire);
        workers[i].escape.store(false, std::memory_order_relaxed);
      }
      continue;
    }
    if (std::chrono::duration<double>(now - launch_start).count() < kQuietSeconds) continue;
    const unsigned n = worker_count.load(std::memory_order_acquire);
    for (unsigned i = 0; i < n; ++i) {
      Worker& w = workers[i];
      if (!w.used.load(std::memory_order_acquire)) continue;
      Streak& s = streaks[i];
      const std::uint64_t taken = w.samples.load(std::memory_order_acquire);
      if (taken != s.seen) {
        Thread* t = w.sampled_thread.load(std::memory_order_relaxed);
        const std::uintptr_t pc = w.sampled_pc.load(std::memory_order_relaxed);
        if (!t) {
          s.thread = nullptr;
          s.count = 0;
        } else if (t != s.thread || s.count == 0 || std::max(s.high, pc) - std::min(s.low, pc) > kSpinWindow) {
          s.thread = t;
          s.low = s.high = pc;
          s.count = 1;
          s.since = now;
        } else {
          s.low = std::min(s.low, pc);
          s.high = std::max(s.high, pc);
          ++s.count;
        }
        bool known_loop = false;
        for (const auto& range : known) known_loop = known_loop || (s.low >= range.first && s.high <= range.second);
        const double spun = std::chrono::duration<double>(now - s.since).count();
        if (s.thread && !w.escape.load(std::memory_order_relaxed) &&
            (known_loop ? s.count >= kKnownSpinSamples && spun >= kKnownSpinSeconds
                        : s.count >= kSpinSamples && spun >= kSpinSeconds)) {
          if (!known_loop) known.emplace_back(s.high - std::min(s.high, kSpinWindow), s.low + kSpinWindow);
          w.escape_thread.store(s.thread, std::memory_order_relaxed);
          w.escape_low.store(s.low, std::memory_order_relaxed);
          w.escape_high.store(s.high, std::memory_order_relaxed);
          w.escape.store(true, std::memory_order_release);
        }
      }
      s.seen = taken;
      pthread_kill(w.os_thread, sample_signal());
    }
  }
}

void register_worker() {
  if (worker_index >= 0) return;
  {
    std::lock_guard<std::mutex> lock(register_mutex);
    unsigned i = 0;
    while (i < kMaxWorkers && workers[i].used.load(std::memory_order_relaxed)) ++i;
    if (i == kMaxWorkers) return;
    workers[i].os_thread = pthread_self();
    workers[i].samples.store(0, std::memory_order_relaxed);
    workers[i].escape.store(false, std::memory_order_relaxed);
    workers[i].used.store(true, std::memory_order_release);
    worker_index = static_cast<int>(i);
    if (worker_count.load(std::memory_order_relaxed) <= i) worker_count.store(i + 1, std::memory_order_release);
  }
  if (!watchdog_started.exchange(true)) std::thread(watch).detach();  // lives as long as the process
}

// A forked child has only the thread that forked: every place is free again, and the child's
// watchdog starts with its first worker.
void after_fork() {
  for (Worker& w : workers) w.used.store(false, std::memory_order_relaxed);
  worker_count.store(0, std::memory_order_relaxed);
  worker_index = -1;
  watchdog_started.store(false, std::memory_order_relaxed);
}

}  // namespace

void install() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    struct sigaction action {};
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &previous_segv);
    sigaction(SIGBUS, &action, &previous_bus);
    struct sigaction sample {};
    sample.sa_sigaction = on_sample;
    sample.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&sample.sa_mask);
    sigaction(sample_signal(), &sample, nullptr);
    pthread_atfork(nullptr, nullptr, after_fork);
  });
  register_worker();
  thread_local bool has_stack = false;
  if (!has_stack) {
    stack_t stack{};
    stack.ss_sp = std::malloc(kAlternateStackBytes);  // kept for the thread's life
    stack.ss_size = kAlternateStackBytes;
    has_stack = stack.ss_sp && sigaltstack(&stack, nullptr) == 0;
  }
}

bool spin_stopped_launch() { return escaped.load(std::memory_order_relaxed); }

void launch_begins() {
  escaped.store(false, std::memory_order_relaxed);
  launch_generation.fetch_add(1, std::memory_order_acq_rel);
  kernel_running.store(true, std::memory_order_release);
}

void launch_ends() { kernel_running.store(false, std::memory_order_release); }

}  // namespace scanlab::sim::detail::fault_handler
