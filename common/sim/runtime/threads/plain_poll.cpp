#include "threads/plain_poll.hpp"

#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "findings/report.hpp"
#include "memory/global_memory.hpp"
#include "memory/memory.hpp"
#include "threads/block.hpp"
#include "threads/scheduler.hpp"
#include "threads/shared_memory.hpp"

namespace scanlab::sim::detail::plain_poll {
namespace {

// The code addresses of loads found polling (polls_at); a handful in any program.
std::mutex poll_code_mutex;
std::set<std::uintptr_t> poll_code;
// The (file, function) of loops the watchdog stopped as hoisted spins (hoisted_spin_at). The
// hoisted load sits before the loop, often on another line (a pointer set up, a first read), so
// the function, not the line, is what ties a plain read's race to the spin.
std::set<std::pair<std::string, std::string>> hoisted_spins;

// The first 8 bytes at the address (what a poll of a flag or a status word tests).
std::uint64_t value_at(const Access& a) {
  std::uint64_t v = 0;
  std::memcpy(&v, reinterpret_cast<const void*>(a.address), a.bytes < sizeof v ? a.bytes : sizeof v);
  return v;
}

void report_poll(const Thread* t, const Access& a) {
  const SourceLocation where = locate(a.pc);
  if (!first_time_at(ReportKind::race, where, a.pc)) return;
  const bool shared = memory::in_shared(a.address);
  Finding f;
  f.kind = ReportKind::race;
  f.headline = std::string("data race on ") + (shared ? "shared" : "global") +
               " memory: a loop polls a word through a plain load, and another thread stored to it while it polled";
  f.parties.push_back(party("polling read", t, where));
  f.location = shared_memory::describe_address(a.address, *t->block);
  if (!shared) f.memory = global_memory::subject_of(a.address);
  f.details.push_back("the thread loaded this word over and over with plain loads, storing nothing, and the value "
                      "changed under it: a plain load beside another thread's store, with nothing ordering them, is "
                      "a data race");
  f.details.push_back("on a GPU the compiler may also load the word once, before the loop, and test the copy in a "
                      "register for ever: the kernel hangs");
  f.fix = "poll the word so that every test loads it again and the load is strong: through a volatile pointer "
          "(const volatile unsigned long long* words), or with an atomic load: "
          "cuda::atomic_ref<T, cuda::thread_scope_device>(word).load(cuda::memory_order_acquire), or "
          "atomicAdd(&word, 0); the acquire (or a __threadfence() after the load) is what makes data published "
          "with the word safe to read";
  report(f);
}

}  // namespace

void watched_load(Thread* t, const Access& a) {
  PollWatch& w = t->poll;
  if (a.address != w.address) {  // a new watch: the row reached kReadsBeforeWatch loads
    w.reads = 0;
    w.repeats = 0;
    w.polling = false;
    w.address = memory::all_live(a.address, a.bytes) ? a.address : 0;
    if (w.address) w.value = value_at(a);
    return;
  }
  if (!w.polling) {
    if (++w.repeats < kRepeatsOfAPoll) return;
    w.polling = true;
    std::lock_guard<std::mutex> lock(poll_code_mutex);
    poll_code.insert(a.pc);
  }
  // A poll: the others run before this load, as before a volatile one.
  scheduler::yield(t, a.pc);
  const std::uint64_t now = value_at(a);
  if (now != w.value) report_poll(t, a);
  w.value = now;
}

void hoisted_spin_at(const SourceLocation& where) {
  if (where.file.empty()) return;
  std::lock_guard<std::mutex> lock(poll_code_mutex);
  hoisted_spins.emplace(where.file, where.function);
}

bool polls_at(std::uintptr_t pc) {
  std::set<std::uintptr_t> polls;
  bool spins = false;
  {
    std::lock_guard<std::mutex> lock(poll_code_mutex);
    if (poll_code.count(pc)) return true;
    polls = poll_code;
    spins = !hoisted_spins.empty();
  }
  if (polls.empty() && !spins) return false;
  const SourceLocation where = locate(pc);
  if (where.file.empty()) return false;
  if (spins) {
    std::lock_guard<std::mutex> lock(poll_code_mutex);
    if (hoisted_spins.count({where.file, where.function})) return true;
  }
  for (const std::uintptr_t poll : polls) {
    const SourceLocation at = locate(poll);
    if (at.line == where.line && at.file == where.file && at.function == where.function) return true;
  }
  return false;
}

}  // namespace scanlab::sim::detail::plain_poll
