#include "threads/thread.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace scanlab::sim::detail {

__thread Thread* current_thread = nullptr;
__thread const Coordinates* current_coordinates = nullptr;

Party party(const char* role, const Thread* t, SourceLocation where) {
  Party p{role, std::move(where)};
  if (t) {
    p.in_kernel = true;
    p.block = t->coords.block_idx;
    p.thread = t->coords.thread_idx;
  }
  return p;
}

const Coordinates& coordinates_or_die(const char* name, const char* file, unsigned line) {
  Finding f;
  f.kind = ReportKind::unsupported;
  f.headline = std::string(name) + " used outside a kernel";
  f.parties.push_back(host_party("use", locate(Site{file, line})));
  f.details.push_back("built-in variables exist only in code that a kernel launch runs");
  report(f);
  std::fflush(nullptr);
  std::abort();
}

}  // namespace scanlab::sim::detail
