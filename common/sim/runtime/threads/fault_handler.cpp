#include "threads/fault_handler.hpp"

#include <signal.h>
#include <ucontext.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "findings/report.hpp"
#include "threads/thread.hpp"

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

void on_fault(int signal, siginfo_t* info, void* context) {
  static bool reporting = false;
  Thread* t = current_thread;
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
  });
  thread_local bool has_stack = false;
  if (!has_stack) {
    stack_t stack{};
    stack.ss_sp = std::malloc(kAlternateStackBytes);  // kept for the thread's life
    stack.ss_size = kAlternateStackBytes;
    has_stack = stack.ss_sp && sigaltstack(&stack, nullptr) == 0;
  }
}

}  // namespace scanlab::sim::detail::fault_handler
