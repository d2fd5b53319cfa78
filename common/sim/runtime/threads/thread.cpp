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

namespace {

[[noreturn]] void used_outside_a_kernel(const char* name, SourceLocation where) {
  Finding f;
  f.kind = ReportKind::unsupported;
  f.headline = std::string(name) + " used outside a kernel";
  f.parties.push_back(host_party("use", std::move(where)));
  f.details.push_back("built-in variables exist only in code that a kernel launch runs");
  report(f);
  std::fflush(nullptr);
  std::abort();
}

[[noreturn]] __attribute__((noinline, cold)) void used_outside_a_kernel_at(const char* name, void* return_address) {
  used_outside_a_kernel(name, locate(reinterpret_cast<std::uintptr_t>(return_address)));
}

const Coordinates& coordinates_at(const char* name, void* return_address) {
  const Coordinates* c = current_coordinates;
  if (!c) used_outside_a_kernel_at(name, return_address);
  return *c;
}

}  // namespace

const Coordinates& coordinates_or_die(const char* name, const char* file, unsigned line) {
  used_outside_a_kernel(name, locate(Site{file, line}));
}

// Not inlined: __builtin_return_address(0) is then the line of lab code that used the variable.
__attribute__((noinline)) uint3 thread_idx() {
  return coordinates_at("threadIdx", __builtin_return_address(0)).thread_idx;
}
__attribute__((noinline)) uint3 block_idx() {
  return coordinates_at("blockIdx", __builtin_return_address(0)).block_idx;
}
__attribute__((noinline)) dim3 block_dim() {
  return coordinates_at("blockDim", __builtin_return_address(0)).block_dim;
}
__attribute__((noinline)) dim3 grid_dim() {
  return coordinates_at("gridDim", __builtin_return_address(0)).grid_dim;
}

}  // namespace scanlab::sim::detail
