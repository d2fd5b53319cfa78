// Storage behind __shared__ declarations: a variable is placed the first time any thread of the
// block reaches its declaration, so that a kernel needs no list of its variables in advance.
#include "threads/shared_memory.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "base/device_limits.hpp"
#include "findings/report.hpp"
#include "memory/global_memory.hpp"
#include "memory/memory.hpp"
#include "threads/block.hpp"
#include "threads/launch.hpp"
#include "threads/scheduler.hpp"

namespace scanlab::sim::detail {
namespace {

using memory::kSharedLayout;
using shared_memory::Arena;
using shared_memory::Variable;

std::size_t max_dynamic_bytes = kDefaultSharedBytesPerBlock;  // one limit for all kernels: the largest asked for

[[noreturn]] void outside_kernel(const char* name, const char* file, unsigned line) {
  Finding f;
  f.kind = ReportKind::unsupported;
  f.headline = std::string("__shared__ variable '") + name + "' used outside a kernel";
  f.parties.push_back(host_party("declaration", locate(Site{file, line})));
  f.details.push_back("declare shared memory inside a __global__ or __device__ function");
  report(f);
  std::fflush(nullptr);
  std::abort();
}

// Opens a variable after everything the arena holds: its alignment padding and red zone around it.
void place(Arena& arena, const Variable& v) {
  const auto base = reinterpret_cast<std::uintptr_t>(arena.base);
  const std::size_t end = kSharedLayout.end(v.offset, v.bytes);
  memory::open_buffer(base + arena.used, base + v.offset, v.bytes, base + end);
  if (memory::shared_garbage_byte() != memory::kUninitializedByte)
    std::memset(reinterpret_cast<void*>(base + v.offset), memory::shared_garbage_byte(), v.bytes);
  arena.used = end;
  arena.variables.push_back(v);
}

}  // namespace

std::size_t shared_memory::dynamic_limit() { return max_dynamic_bytes; }

void shared_memory::begin_block(Block& b) {
  Arena& arena = b.shared;
  arena.base = memory::shared_arena(b.slot);
  arena.used = 0;
  arena.variables.clear();
  arena.dynamic_name = nullptr;
  const Launch& launch = *b.launch;
  if (launch.dynamic_shared_bytes)
    place(arena, Variable{nullptr, memory::kSharedLeadingRedZone, launch.dynamic_shared_bytes,
                          "extern __shared__ (dynamic)", launch.site});
}

void shared_memory::end_block(Block& b) {
  memory::mark(reinterpret_cast<std::uintptr_t>(b.shared.base), b.shared.used, memory::kUnallocated);
}

std::size_t shared_memory::bytes_declared(const Block& b) {
  std::size_t bytes = 0;
  for (const Variable& v : b.shared.variables) bytes += v.bytes;
  return bytes;
}

std::string shared_memory::describe_address(std::uintptr_t a, const Block& b) {
  if (!memory::in_shared(a)) return global_memory::describe_address(a);
  // The variable the address is in, or else the nearest one: an access just before a variable
  // is named by that variable, not by the end of the one declared before it.
  const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(b.shared.base);
  const Variable* nearest = nullptr;
  std::size_t distance = SIZE_MAX;
  for (const Variable& v : b.shared.variables) {
    const std::uintptr_t begin = base + v.offset, end = begin + v.bytes;
    if (a >= begin && a < end)
      return "shared variable '" + std::string(v.name) + "' (declared at " + v.declared.file + ":" +
             std::to_string(v.declared.line) + "), byte " + std::to_string(a - begin) + " of " +
             std::to_string(v.bytes);
    const std::size_t d = a < begin ? begin - a : a - end;
    if (d < distance) {
      distance = d;
      nearest = &v;
    }
  }
  if (!nearest) return "shared memory at offset " + std::to_string(a - base) + ", where this block declared nothing";
  const bool before = a < base + nearest->offset;
  return "shared memory " + std::to_string(distance) + (before ? " bytes before the start of '" : " bytes past the end of '") +
         nearest->name + "' (" + std::to_string(nearest->bytes) + " bytes, declared at " + nearest->declared.file +
         ":" + std::to_string(nearest->declared.line) + ")";
}

std::string shared_memory::fix_past_dynamic_memory(std::uintptr_t a, const Block& b) {
  if (!memory::in_shared(a) || !b.shared.dynamic_name) return {};
  const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(b.shared.base);
  const std::uintptr_t begin = base + memory::kSharedLeadingRedZone;
  const std::size_t bytes = b.launch->dynamic_shared_bytes;
  // Past the dynamic part's end and before any static variable placed after it.
  if (a < begin + bytes) return {};
  for (const Variable& v : b.shared.variables)
    if (v.key != nullptr && a >= base + v.offset) return {};
  const std::string name = b.shared.dynamic_name;
  const std::string launch_line = locate(b.launch->site).text();
  if (bytes == 0)
    return "'" + name + "' is the kernel's dynamic shared memory, and the launch at " + launch_line +
           " gave it none: pass the bytes the kernel uses of it as the third argument of <<<grid, block, bytes>>>";
  return "'" + name + "' is the kernel's dynamic shared memory, and the launch at " + launch_line + " gave it " +
         std::to_string(bytes) + " bytes (the third argument of <<<grid, block, bytes>>>): give it as many as the "
         "kernel uses, or keep the kernel's indices within those " + std::to_string(bytes);
}

void* block_shared_storage(const void* key, std::size_t bytes, std::size_t alignment, const char* name,
                           const char* file, unsigned line) {
  Thread* t = current_thread;
  if (!t) outside_kernel(name, file, line);
  Arena& arena = t->block->shared;
  for (const Variable& v : arena.variables)
    if (v.key == key) return arena.base + v.offset;
  const std::size_t offset = kSharedLayout.start(std::max(arena.used, memory::kSharedLeadingRedZone), alignment);
  std::size_t static_bytes = bytes;
  for (const Variable& v : arena.variables)
    if (v.key) static_bytes += v.bytes;
  if (static_bytes > kDefaultSharedBytesPerBlock || kSharedLayout.end(offset, bytes) > memory::kSharedArenaBytes) {
    Finding f;
    f.kind = ReportKind::invalid_launch;
    f.headline = "block uses " + std::to_string(static_bytes) + " bytes of static shared memory; the limit is " +
                 std::to_string(kDefaultSharedBytesPerBlock) + " (use dynamic shared memory beyond that)";
    f.parties.push_back(party("declaration", t, locate(Site{file, line})));
    report(f);
    scheduler::abort_kernel(t, cudaErrorInvalidValue);
  }
  place(arena, Variable{key, offset, bytes, name, Site{file, line}});
  return arena.base + offset;
}

void* block_dynamic_shared(std::size_t, const char* name, const char* file, unsigned line) {
  Thread* t = current_thread;
  if (!t) outside_kernel(name, file, line);
  Arena& arena = t->block->shared;
  arena.dynamic_name = name;
  arena.dynamic_declared = Site{file, line};
  if (!arena.variables.empty() && arena.variables.front().key == nullptr) {
    arena.variables.front().name = name;  // name it as the kernel does, for reports
    arena.variables.front().declared = Site{file, line};
  }
  return arena.base + memory::kSharedLeadingRedZone;
}

cudaError_t set_max_dynamic_shared_memory(int bytes) {
  if (bytes < 0 || static_cast<std::size_t>(bytes) > kMaxSharedBytesPerBlock) return cudaErrorInvalidValue;
  max_dynamic_bytes = std::max(max_dynamic_bytes, static_cast<std::size_t>(bytes));
  return cudaSuccess;
}

}  // namespace scanlab::sim::detail
