// Per-block shared memory. The rewriter turns
//   __shared__ float tile[2 * N];          into  auto& tile = ::scanlab::sim::block_shared<float[2 * N]>([]{}, "tile", __FILE__, __LINE__);
//   extern __shared__ float dynamic[];     into  auto* const dynamic = ::scanlab::sim::dynamic_shared<float>("dynamic", __FILE__, __LINE__);
// The lambda's type is unique to the declaration (and to each instantiation of a template
// kernel), which gives every declaration its own key without any global registry.
#pragma once

#include <cstddef>

namespace scanlab::sim {
namespace detail {
void* block_shared_storage(const void* key, std::size_t bytes, std::size_t alignment, const char* name,
                           const char* file, unsigned line);
void* block_dynamic_shared(std::size_t alignment, const char* name, const char* file, unsigned line);
}  // namespace detail

template <class V, class DeclarationTag>
V& block_shared(DeclarationTag, const char* name, const char* file, unsigned line) {
  static const char key = 0;
  return *static_cast<V*>(detail::block_shared_storage(&key, sizeof(V), alignof(V), name, file, line));
}

template <class T>
T* dynamic_shared(const char* name, const char* file, unsigned line) {
  return static_cast<T*>(detail::block_dynamic_shared(alignof(T), name, file, line));
}

}  // namespace scanlab::sim
