#include "threads/thread.hpp"

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

}  // namespace scanlab::sim::detail
