#include "memory/thrust_access.hpp"

#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

#include "findings/call_chain.hpp"
#include "findings/report.hpp"
#include "memory/global_memory.hpp"
#include "memory/memory.hpp"

namespace scanlab::sim::detail::thrust_access {
namespace {

struct Verdict {
  bool thrust = false;
  SourceLocation program_line;  // the innermost frame of the program's own, for reports
};

std::mutex verdict_mutex;
std::map<std::uintptr_t, Verdict> verdicts;  // by code address; entries are never removed

const Verdict& judge(std::uintptr_t pc) {
  thread_local std::unordered_map<std::uintptr_t, const Verdict*> seen;
  if (auto it = seen.find(pc); it != seen.end()) return *it->second;
  std::lock_guard<std::mutex> lock(verdict_mutex);
  auto [it, inserted] = verdicts.try_emplace(pc);
  if (inserted) {
    const call_chain::Reading chain = call_chain::read(pc);
    it->second.thrust = chain.through_thrust;
    it->second.program_line = chain.program_line;
  }
  seen.emplace(pc, &it->second);
  return it->second;
}

void report_access(ReportKind kind, const std::string& headline, std::uintptr_t address, bool write,
                   std::uintptr_t pc, const char* advice) {
  const SourceLocation& where = judge(pc).program_line;
  if (!first_time_at(kind, where, pc)) return;
  Finding f;
  f.kind = kind;
  f.headline = headline;
  f.parties.push_back(host_party(write ? "write" : "read", where));
  f.details.push_back("location: " + global_memory::describe_address(address));
  f.details.push_back(advice);
  report(f);
}

}  // namespace

bool made_by_thrust(std::uintptr_t pc) { return judge(pc).thrust; }

void check(std::uintptr_t address, std::size_t bytes, bool write, std::uintptr_t pc) {
  if (memory::all_live(address, bytes)) return;
  const void* p = reinterpret_cast<const void*>(address);
  if (!global_memory::range_live(p, bytes)) {
    report_access(ReportKind::out_of_bounds,
                  std::string("a Thrust algorithm ") + (write ? "wrote to" : "read from") +
                      " device memory outside every buffer",
                  address, write, pc,
                  "the range given to Thrust runs past the buffer's end (or into a freed buffer): on a GPU, an "
                  "illegal-address error");
  } else if (write) {
    memory::mark_written(p, bytes);
  } else {
    report_access(ReportKind::uninitialized_read, "a Thrust algorithm read device memory that nothing wrote",
                  address, write, pc,
                  "nothing wrote these bytes since cudaMalloc: fresh device memory holds garbage; set it with "
                  "cudaMemset, cudaMemcpy or a kernel before Thrust reads it");
  }
}

}  // namespace scanlab::sim::detail::thrust_access
