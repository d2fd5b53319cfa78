#include "memory/race_shadow.hpp"

#include <sys/mman.h>

#include "memory/memory.hpp"
#include "memory/spilled_checks.hpp"

namespace scanlab::sim::detail::race_detector {

CodeIds code_ids;
Cell<true>* shared_shadow = nullptr;
std::uint32_t current_launch = 0;
Segments segments;
GlobalCell* global_shadow = nullptr;
std::uint64_t* second_readers = nullptr;
GranuleLocks granule_locks;

namespace {

template <typename T>
T* reserve_cells(std::size_t count) {
  void* p = mmap(nullptr, count * sizeof(T), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    std::fprintf(stderr,
                 "scanlab-sim: cannot reserve address space for race detection "
                 "(vm.overcommit_memory=2?); run with SCANLAB_SIM_RACECHECK=off\n");
    std::abort();
  }
  return static_cast<T*>(p);
}
}  // namespace

void reserve_shadow() {
  static std::once_flag shadow_reserved;
  std::call_once(shadow_reserved, [] {
    global_shadow = reserve_cells<GlobalCell>(memory::kGlobalBytes / kGranule);
    second_readers = reserve_cells<std::uint64_t>(memory::kGlobalBytes / kGranule);
    memory::prefer_huge_pages(global_shadow, memory::kGlobalBytes / kGranule * sizeof(GlobalCell));
    shared_shadow = reserve_cells<Cell<true>>(memory::kSharedBytes / kGranule);
  });
}

void begin_launch_shadow(std::uint32_t launch_id) {
  reserve_shadow();
  if (!segments.begin_launch()) {
    // Segment numbers start over: forget every record of global memory (all of earlier launches,
    // so ordered before this one, as no record is), in memory and in a file of spilled checks.
    memory::release_whole_pages(global_shadow, memory::kGlobalBytes / kGranule * sizeof(GlobalCell));
    memory::release_whole_pages(second_readers, memory::kGlobalBytes / kGranule * sizeof(std::uint64_t));
  }
  current_launch = launch_id;
}

bool move_shadow_to_file(std::uintptr_t begin, std::size_t bytes) {
  reserve_shadow();
  const std::size_t first = (begin - memory::regions.global_begin) / kGranule;
  const std::size_t count = bytes / kGranule;
  const bool cells_moved = memory::spill::move_to_file(&global_shadow[first], count * sizeof(GlobalCell));
  return memory::spill::move_to_file(&second_readers[first], count * sizeof(std::uint64_t)) && cells_moved;
}

void forget_shared_records() {
  madvise(shared_shadow, memory::kSharedBytes / kGranule * sizeof(Cell<true>), MADV_DONTNEED);
}

void forget_range(std::uintptr_t begin, std::size_t bytes) {
  if (!global_shadow) return;  // no launch yet: no records
  const std::size_t first = (begin - memory::regions.global_begin) / kGranule;
  const std::size_t count = bytes / kGranule;
  memory::release_whole_pages(&global_shadow[first], count * sizeof(GlobalCell));
  memory::release_whole_pages(&second_readers[first], count * sizeof(std::uint64_t));
  memory::spill::bring_back(&global_shadow[first], count * sizeof(GlobalCell));
  memory::spill::bring_back(&second_readers[first], count * sizeof(std::uint64_t));
}

}  // namespace scanlab::sim::detail::race_detector
