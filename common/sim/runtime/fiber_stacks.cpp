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

// The top of a suspended fiber's stack (its saved registers and innermost frames, a few cache
// lines) is what a switch to it touches. An L2 cache of 8 ways repeats its sets every 64 KiB, so
// stacks whose tops lay 64 KiB apart would all compete for the same 8 lines of each set: each
// stack's top moves down by its own multiple of kColourStride (cache colouring), kColours of them
// spreading the tops of a block's fibers evenly over every set. The room for that lies beyond the
// kStackBytes every fiber has, in address space that no page backs until touched.
constexpr std::size_t kColours = 128;
constexpr std::size_t kColourStride = 512;  // the lines a suspended fiber's top spans, about
constexpr std::size_t kReservedBytes = kGuardBytes + kStackBytes + kColours * kColourStride;

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
    void* base = mmap(nullptr, kReservedBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) {
      std::fprintf(stderr, "scanlab-sim: out of memory for thread stacks\n");
      std::abort();
    }
    mprotect(base, kGuardBytes, PROT_NONE);
    const std::size_t colour = (created_++ % kColours) * kColourStride;  // kept for the stack's whole life
    boost::context::stack_context sc;
    sc.size = kReservedBytes - colour;
    sc.sp = static_cast<char*>(base) + sc.size;
    return sc;
  }
  void give_back(boost::context::stack_context& sc) {
    std::lock_guard<std::mutex> lock(mutex_);
    free_.push_back(sc);
  }

 private:
  std::mutex mutex_;
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
