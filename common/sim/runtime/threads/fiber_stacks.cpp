#include "threads/fiber_stacks.hpp"

#include <sys/mman.h>

#include <atomic>
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
// Stacks are mapped this many at a time: one mapping, not one per stack.
constexpr std::size_t kStacksPerSlab = 64;

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102  // Linux 6.13
#endif

// A guard page that splits no mapping where the kernel can (MADV_GUARD_INSTALL, Linux 6.13), else
// mprotect. A process may hold only vm.max_map_count mappings (65530 by default), and a guard
// made by mprotect costs two: about 32000 guarded stacks, fewer than the threads of a grid a GPU
// holds at once (391 blocks of 256 threads, 100096 threads).
bool install_guard(char* page) {
  static std::atomic<bool> guard_regions{true};
  if (guard_regions.load(std::memory_order_relaxed)) {
    if (madvise(page, kGuardBytes, MADV_GUARD_INSTALL) == 0) return true;
    guard_regions.store(false, std::memory_order_relaxed);
  }
  return mprotect(page, kGuardBytes, PROT_NONE) == 0;
}

[[noreturn]] void out_of_stacks(std::size_t created) {
  std::fprintf(stderr,
               "scanlab-sim: cannot map more thread stacks (%zu CUDA threads alive at once); the system's limit "
               "on mappings (vm.max_map_count) or its memory is reached\n",
               created);
  std::abort();
}

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
    void* slab = mmap(nullptr, kStacksPerSlab * kReservedBytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (slab == MAP_FAILED) out_of_stacks(created_);
    // Handed out from the slab's start: the last one pushed is taken first.
    for (std::size_t i = kStacksPerSlab; i-- > 0;) {
      char* base = static_cast<char*>(slab) + i * kReservedBytes;
      if (!install_guard(base)) out_of_stacks(created_);
      const std::size_t colour = ((created_ + i) % kColours) * kColourStride;  // kept for the stack's whole life
      boost::context::stack_context sc;
      sc.size = kReservedBytes - colour;
      sc.sp = base + sc.size;
      free_.push_back(sc);
    }
    created_ += kStacksPerSlab;
    boost::context::stack_context sc = free_.back();
    free_.pop_back();
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
