#include "launch/garbage_judgement.hpp"

#include <cstring>

#include "memory/memory.hpp"

namespace scanlab::sim::detail::garbage_judgement {

DeviceMemoryCopy DeviceMemoryCopy::take() {
  DeviceMemoryCopy copy;
  copy.buffers_ = global_memory::live_buffers();
  std::size_t total = 0;
  for (const global_memory::Buffer& b : copy.buffers_) total += b.bytes;
  if (total > kJudgedBytesLimit) return DeviceMemoryCopy{};
  copy.bytes_.resize(total);
  copy.validity_.resize(total);
  std::size_t at = 0;
  for (const global_memory::Buffer& b : copy.buffers_) {
    std::memcpy(copy.bytes_.data() + at, reinterpret_cast<const void*>(b.begin), b.bytes);
    std::memcpy(copy.validity_.data() + at, memory::validity_of(b.begin), b.bytes);
    at += b.bytes;
  }
  copy.taken_ = true;
  return copy;
}

void DeviceMemoryCopy::restore() const {
  std::size_t at = 0;
  for (const global_memory::Buffer& b : buffers_) {
    std::memcpy(reinterpret_cast<void*>(b.begin), bytes_.data() + at, b.bytes);
    std::memcpy(memory::validity_of(b.begin), validity_.data() + at, b.bytes);
    at += b.bytes;
  }
}

bool DeviceMemoryCopy::same_as_now() const {
  const std::vector<global_memory::Buffer> now = global_memory::live_buffers();
  if (now.size() != buffers_.size()) return false;
  std::size_t at = 0;
  for (std::size_t i = 0; i < now.size(); ++i) {
    const global_memory::Buffer& b = buffers_[i];
    if (now[i].begin != b.begin || now[i].bytes != b.bytes) return false;
    if (std::memcmp(reinterpret_cast<const void*>(b.begin), bytes_.data() + at, b.bytes) != 0 ||
        std::memcmp(memory::validity_of(b.begin), validity_.data() + at, b.bytes) != 0)
      return false;
    at += b.bytes;
  }
  return true;
}

}  // namespace scanlab::sim::detail::garbage_judgement
