#include "base/mark_map.hpp"

#include <algorithm>

namespace scanlab::sim::detail::memory_order {
namespace {

constexpr std::size_t kThreadsPerMark = 8;

}  // namespace

void add(Mark& m, std::uint16_t thread, std::uint32_t clock) {
  for (auto& entry : m.threads)
    if (entry.first == thread) {
      entry.second = std::max(entry.second, clock);
      return;
    }
  if (m.threads.size() < kThreadsPerMark) m.threads.emplace_back(thread, clock);
  else m.any_thread_clock = std::max(m.any_thread_clock, clock);
}

void merge(Mark& into, const Mark& from) {
  into.interval = std::max(into.interval, from.interval);
  into.any_thread_clock = std::max(into.any_thread_clock, from.any_thread_clock);
  for (const auto& [thread, clock] : from.threads) add(into, thread, clock);
}

const Mark* MarkMap::find(std::uint32_t block) const {
  if (block >= capacity()) return nullptr;
  const void* at = root_.get();
  for (unsigned level = height_ + 1; at != nullptr && level-- > 0;)
    at = static_cast<const Node*>(at)->slots[digit(block, level)].get();
  return static_cast<const Mark*>(at);
}

Mark& MarkMap::writable(std::uint32_t block) {
  grow_to(std::uint64_t{block} + 1);
  // Down the path to the mark, copying each node (and the mark) that another map holds too.
  Slot* slot = &root_;
  for (unsigned level = height_ + 1; level-- > 0;) {
    if (slot->use_count() != 1) *slot = std::make_shared<Node>(*static_cast<const Node*>(slot->get()));
    Slot& next = static_cast<Node*>(slot->get())->slots[digit(block, level)];
    if (!next) next = level == 0 ? Slot(std::make_shared<Mark>()) : Slot(std::make_shared<Node>());
    slot = &next;
  }
  if (slot->use_count() != 1) *slot = std::make_shared<Mark>(*static_cast<const Mark*>(slot->get()));
  return *static_cast<Mark*>(slot->get());
}

void MarkMap::grow_to(std::uint64_t bound) {
  if (!root_) {
    root_ = std::make_shared<Node>();
    height_ = 0;
  }
  while (capacity() < bound) {
    auto taller = std::make_shared<Node>();
    taller->slots[0] = std::move(root_);
    root_ = std::move(taller);
    ++height_;
  }
}

// The union of two slots of the same level (level -1: marks), sharing a or b when one already
// holds the other, and their parts where they agree.
MarkMap::Slot MarkMap::unite(const Slot& a, const Slot& b, int level) {
  if (!b || a == b) return a;
  if (!a) return b;
  if (level < 0) {
    const Mark& x = *static_cast<const Mark*>(a.get());
    const Mark& y = *static_cast<const Mark*>(b.get());
    Mark both = x;
    memory_order::merge(both, y);
    if (both == x) return a;
    if (both == y) return b;
    return std::make_shared<Mark>(std::move(both));
  }
  const Node& x = *static_cast<const Node*>(a.get());
  const Node& y = *static_cast<const Node*>(b.get());
  Node both;
  bool is_a = true, is_b = true;
  for (unsigned i = 0; i < kFanout; ++i) {
    both.slots[i] = unite(x.slots[i], y.slots[i], level - 1);
    is_a = is_a && both.slots[i] == x.slots[i];
    is_b = is_b && both.slots[i] == y.slots[i];
  }
  if (is_a) return a;
  if (is_b) return b;
  return std::make_shared<Node>(std::move(both));
}

void MarkMap::merge(const MarkMap& from) {
  if (!from.root_ || root_ == from.root_) return;
  if (!root_) {
    *this = from;
    return;
  }
  grow_to(from.capacity());
  // `from` may be the shorter: its root stands for slot 0 of slot 0 ... of this map's root.
  Slot other = from.root_;
  for (unsigned level = from.height_; level < height_; ++level) {
    auto taller = std::make_shared<Node>();
    taller->slots[0] = std::move(other);
    other = std::move(taller);
  }
  root_ = unite(root_, other, static_cast<int>(height_));
}

void MarkMap::clear() {
  root_.reset();
  height_ = 0;
}

}  // namespace scanlab::sim::detail::memory_order
