// The kernels the simulator's benchmarks time, behind plain host functions so that the
// benchmark driver itself is ordinary (uninstrumented) C++.
#pragma once

#include <vector>

namespace scanlab::sim::bench {

constexpr unsigned kBarrierBlockThreads = 1024;

// One block of `threads` threads (at most kBarrierBlockThreads); each of the `rounds` rounds is
// one __syncthreads() followed by `accesses` shared-memory accesses per thread: 0, 1 (a read of
// the neighbour's value) or 2 (and a write of the thread's own).
void barrier_rounds(unsigned rounds, unsigned threads = kBarrierBlockThreads, unsigned accesses = 2);

// Inclusive scan of n ints (n <= 2^20) by three kernels: scan sections of 1024 elements
// (Kogge-Stone, double-buffered), scan the section sums in one block, add them back.
class HierarchicalScan {
 public:
  static constexpr unsigned kSection = 1024;
  static constexpr unsigned kMaxElements = kSection * kSection;
  static constexpr unsigned kBarriersPerSection = 10;  // log2(kSection): one per Kogge-Stone step

  explicit HierarchicalScan(const std::vector<int>& input);
  HierarchicalScan(const HierarchicalScan&) = delete;
  HierarchicalScan& operator=(const HierarchicalScan&) = delete;
  ~HierarchicalScan();

  void run();                       // launches the three kernels and waits for them
  void run_sections();              // the first kernel alone: every section scanned on its own
  std::vector<int> result() const;  // the scan of the last run() or run_sections()

 private:
  unsigned n_;
  unsigned sections_;
  int* in_ = nullptr;
  int* out_ = nullptr;
  int* section_sums_ = nullptr;
  int* scanned_sums_ = nullptr;
};

}  // namespace scanlab::sim::bench
