#include "fiber_stacks.hpp"

#include <sys/mman.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace scanlab::sim::detail {
namespace {

constexpr std::size_t kStackBytes = 64 * 1024;  // small stacks keep the fibers of a block TLB-friendly
constexpr std::size_t kGuardBytes = 4096;

// Blocks start (and stopped ones unwind) on several worker threads at once: one lock.
class StackPool {
 public:
  boost::context::stack_context take() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!free_.empty()) {
      boost::context::stack_context sc = free_.back();
      free_.pop_back();
      return sc;
    }
    void* base = mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) {
      std::fprintf(stderr, "scanlab-sim: out of memory for thread stacks\n");
      std::abort();
    }
    mprotect(base, kGuardBytes, PROT_NONE);
    // Stacks are 64 KiB apart, so their tops would all fall into the same cache sets; each
    // stack starts at its own offset (cache colouring), which it keeps for its whole life.
    const std::size_t colour = (created_++ % kColours) * kColourStride;
    boost::context::stack_context sc;
    sc.size = kStackBytes - colour;
    sc.sp = static_cast<char*>(base) + sc.size;
    return sc;
  }
  void give_back(boost::context::stack_context& sc) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(sc);
  }

 private:
  std::mutex mutex_;
  static constexpr std::size_t kColours = 13;
  static constexpr std::size_t kColourStride = 1024 + 64;  // at most 13 KiB of each stack
  std::vector<boost::context::stack_context> free_;
  std::size_t created_ = 0;
};

StackPool& stacks() {
  static StackPool* pool = new StackPool;  // never destroyed: parked fibers outlive static destructors
  return *pool;
}

}  // namespace

boost::context::stack_context PooledStack::allocate() { return stacks().take(); }
void PooledStack::deallocate(boost::context::stack_context& sc) noexcept { stacks().give_back(sc); }

}  // namespace scanlab::sim::detail
