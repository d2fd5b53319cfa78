// What memory_order knows of other blocks' accesses, block by block: a Mark per block, in a
// map that copies share.
//
// Knowledge travels: a block that acquired a flag and then releases its own hands on what the
// first flag carried, so in a chain of hand-offs (block b waits for block b - 1) the flag of
// block b carries a mark of every block before it. Copied into each flag, that is memory that
// grows with the square of the number of blocks (32 768 tiles of a 2^28-element scan: tens of
// GiB). A MarkMap is a persistent trie instead: copying a map is copying a pointer, and
// changing one block's mark copies only the path from the root to that mark (a few nodes), so
// flag b shares everything but its own block's path with flag b - 1. A merge shares whatever
// the two maps already share and allocates only where they differ.
//
// Nodes and marks are immutable once two maps hold them; a map changes a node in place only
// where it holds the only reference. Maps are copied and merged on several OS threads at once
// (a block's barrier merges the flags it read, in the parallel phase), hence shared_ptr's
// atomic counts; a map itself is changed by one thread at a time.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace scanlab::sim::detail::memory_order {

// Accesses of one source block that a release covers: those before a barrier that preceded it
// (interval below `interval`), and those of the listed threads up to their clock. A list that
// grows past its limit covers every thread up to `any_thread_clock` (fewer reports, never a false one).
struct Mark {
  std::uint32_t interval = 0;
  std::uint32_t any_thread_clock = 0;
  std::vector<std::pair<std::uint16_t, std::uint32_t>> threads;

  bool operator==(const Mark& other) const {
    return interval == other.interval && any_thread_clock == other.any_thread_clock && threads == other.threads;
  }
};

// The mark covers `thread`'s accesses up to `clock`.
void add(Mark& m, std::uint16_t thread, std::uint32_t clock);
// The mark covers what `from` covers too.
void merge(Mark& into, const Mark& from);

class MarkMap {
 public:
  // The mark of `block`, or null: the map covers nothing of it.
  const Mark* find(std::uint32_t block) const;
  // The mark of `block` (an empty one if it had none), to change: this map's own copy.
  Mark& writable(std::uint32_t block);
  // Every block's mark covers what its mark in `from` covers too.
  void merge(const MarkMap& from);
  void clear();

 private:
  static constexpr unsigned kBits = 4;
  static constexpr unsigned kFanout = 1u << kBits;
  // A slot holds a Node, or (in a node of level 0) a Mark.
  using Slot = std::shared_ptr<void>;
  struct Node {
    std::array<Slot, kFanout> slots;
  };

  static unsigned digit(std::uint32_t block, unsigned level) { return (block >> (kBits * level)) & (kFanout - 1); }
  static Slot unite(const Slot& a, const Slot& b, int level);
  // The root grows until block numbers below `bound` fit.
  void grow_to(std::uint64_t bound);
  std::uint64_t capacity() const { return root_ ? std::uint64_t{1} << (kBits * (height_ + 1)) : 0; }

  Slot root_;            // a Node of level height_, or null: the map is empty
  unsigned height_ = 0;  // levels of nodes above level 0, whose slots hold marks
};

}  // namespace scanlab::sim::detail::memory_order
