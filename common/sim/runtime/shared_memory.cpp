// Storage behind __shared__ declarations: each resident block owns an arena; a variable is
// placed the first time any thread of the block reaches its declaration, with a red zone after
// it so that running off its end is reported instead of silently hitting the next variable.
#include <cstring>
#include <string>

#include "memory.hpp"
#include "report.hpp"
#include "state.hpp"

namespace scanlab::sim::detail {
namespace {

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

}  // namespace

void* block_shared_storage(const void* key, std::size_t bytes, std::size_t alignment, const char* name,
                           const char* file, unsigned line) {
  Thread* t = current_thread;
  if (!t) outside_kernel(name, file, line);
  Block& b = *t->block;
  for (const SharedVariable& v : b.shared_variables)
    if (v.key == key) return b.shared_base + v.offset;
  const std::size_t offset = kSharedLayout.start(b.shared_used, alignment);
  const std::size_t end = kSharedLayout.end(offset, bytes);
  std::size_t static_bytes = bytes;
  for (const SharedVariable& v : b.shared_variables)
    if (v.key) static_bytes += v.bytes;
  if (static_bytes > kDefaultSharedBytesPerBlock || end > kSharedArenaBytes) {
    Finding f;
    f.kind = ReportKind::invalid_launch;
    f.headline = "block uses " + std::to_string(static_bytes) + " bytes of static shared memory; the limit is " +
                 std::to_string(kDefaultSharedBytesPerBlock) + " (use dynamic shared memory beyond that)";
    f.parties.push_back(party("declaration", t, locate(Site{file, line})));
    report(f);
    abort_kernel(t, cudaErrorInvalidValue);
  }
  unsigned char* p = b.shared_base + offset;
  const auto base = reinterpret_cast<std::uintptr_t>(b.shared_base);
  open_buffer(base + b.shared_used, base + offset, bytes, base + end);
  b.shared_used = end;
  b.shared_variables.push_back(SharedVariable{key, offset, bytes, name, Site{file, line}});
  return p;
}

void* block_dynamic_shared(std::size_t, const char* name, const char* file, unsigned line) {
  Thread* t = current_thread;
  if (!t) outside_kernel(name, file, line);
  Block& b = *t->block;
  if (b.dynamic_bytes && !b.shared_variables.empty() && b.shared_variables.front().key == nullptr) {
    b.shared_variables.front().name = name;  // name it as the kernel does, for reports
    b.shared_variables.front().declared = Site{file, line};
  }
  return b.shared_base;
}

}  // namespace scanlab::sim::detail
