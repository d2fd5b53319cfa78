// CUDA 13 answers every configuration the device cannot run with cudaErrorInvalidValue
// (older toolkits said cudaErrorInvalidConfiguration for some); the simulator answers the same.
#include "launch/launch_configuration.hpp"

#include <string>

#include "base/device_limits.hpp"
#include "findings/errors.hpp"
#include "findings/report.hpp"
#include "threads/shared_memory.hpp"

namespace scanlab::sim::detail {
namespace {

std::string dims(const dim3& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

void report_invalid_launch(const LaunchRequest& r, const std::string& why, cudaError_t error) {
  Finding f;
  f.kind = ReportKind::invalid_launch;
  f.headline = "invalid kernel launch: " + why;
  f.parties.push_back(host_party("launch", locate(Site{r.file, r.line})));
  // The whole configuration, as the <<<...>>> computed it: a grid size that came out 0 is most
  // often a block count rounded down, or an empty input launched anyway.
  f.details.push_back("configuration: grid " + dims(r.grid) + ", block " + dims(r.block) + ", " +
                      std::to_string(r.dynamic_shared_bytes) + " bytes of dynamic shared memory");
  f.details.push_back("the kernel did not run; cudaGetLastError() returns " + std::string(cudaGetErrorName(error)));
  report(f);
  set_pending_error(error);
}

}  // namespace

int occupancy_blocks_per_multiprocessor(int block_size, std::size_t dynamic_shared_bytes) {
  if (block_size <= 0 || block_size > static_cast<int>(kMaxThreadsPerBlock)) return 0;
  return static_cast<int>(blocks_per_multiprocessor(static_cast<unsigned>(block_size), dynamic_shared_bytes));
}

bool valid_launch_configuration(const LaunchRequest& r) {
  const dim3 b = r.block, g = r.grid;
  const unsigned long long threads = 1ull * b.x * b.y * b.z;
  if (g.x == 0 || g.y == 0 || g.z == 0) {
    report_invalid_launch(r, "a grid of 0 blocks (" + std::to_string(g.x) + "x" + std::to_string(g.y) + "x" +
                                 std::to_string(g.z) + "); CUDA launches no kernel for an empty grid",
                          cudaErrorInvalidValue);
    return false;
  }
  if (threads == 0) {
    report_invalid_launch(r, "a block of 0 threads (" + std::to_string(b.x) + "x" + std::to_string(b.y) + "x" +
                                 std::to_string(b.z) + ")",
                          cudaErrorInvalidValue);
    return false;
  }
  if (threads > kMaxThreadsPerBlock || b.x > 1024 || b.y > 1024 || b.z > 64) {
    report_invalid_launch(r,
                          "a block of " + std::to_string(threads) + " threads (" + std::to_string(b.x) + "x" +
                              std::to_string(b.y) + "x" + std::to_string(b.z) +
                              "); a block may have at most 1024 threads, and at most 1024x1024x64 per dimension",
                          cudaErrorInvalidValue);
    return false;
  }
  if (g.y > 65535 || g.z > 65535 || 1ull * g.x * g.y * g.z > (1ull << 24)) {
    report_invalid_launch(r, "the grid has more blocks than the simulator runs (2^24) or y/z over 65535",
                          cudaErrorInvalidValue);
    return false;
  }
  if (r.dynamic_shared_bytes > shared_memory::dynamic_limit()) {
    report_invalid_launch(r,
                          std::to_string(r.dynamic_shared_bytes) + " bytes of dynamic shared memory; the limit is " +
                              std::to_string(shared_memory::dynamic_limit()) +
                              " (raise it up to 227 KiB with cudaFuncSetAttribute("
                              "kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes))",
                          cudaErrorInvalidValue);
    return false;
  }
  return true;
}

}  // namespace scanlab::sim::detail
