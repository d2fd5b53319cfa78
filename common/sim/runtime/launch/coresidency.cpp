#include "launch/coresidency.hpp"

#include "base/device_limits.hpp"
#include "base/settings.hpp"

namespace scanlab::sim::detail::coresidency {

GridFit grid_fit(const Launch& launch, std::size_t shared_bytes_per_block) {
  GridFit fit;
  fit.threads_per_block = launch.threads_per_block;
  fit.shared_bytes_per_block = shared_bytes_per_block;
  fit.per_multiprocessor = blocks_per_multiprocessor(launch.threads_per_block, shared_bytes_per_block);
  fit.capacity = fit.per_multiprocessor * kMultiprocessors;
  fit.blocks = launch.block_count;
  return fit;
}

std::string describe(const GridFit& fit) {
  return "an H100 holds " + std::to_string(kMultiprocessors) + " multiprocessors x " +
         std::to_string(fit.per_multiprocessor) + " blocks each = " + std::to_string(fit.capacity) +
         " blocks of this kernel at once (blocks of " + std::to_string(fit.threads_per_block) + " threads and " +
         std::to_string(fit.shared_bytes_per_block) + " bytes of shared memory; registers not counted)";
}

void report_relied_on_coresidency(const Launch& launch, const GridFit& fit, const Party& waiting,
                                  std::optional<WaitPicture> blocks) {
  Finding f;
  f.kind = ReportKind::coresidency;
  f.is_error = false;  // the kernel completed, as it does on a GPU that holds the grid
  f.headline = "the kernel relied on all " + std::to_string(fit.blocks) +
               " of its blocks running at once: blocks waited for blocks that had not started";
  f.parties.push_back(waiting);
  f.parties.push_back(host_party("launch", locate(launch.site)));
  f.details.push_back("it completed here because the whole grid fits: " + describe(fit) +
                      "; the simulator started every block once the " + std::to_string(kDefaultResidentBlocks) +
                      " it runs at first all waited");
  f.details.push_back("CUDA promises that blocks run at once only for a cooperative launch "
                      "(cudaLaunchCooperativeKernel, which refuses a grid that does not fit); launched with <<<...>>>, "
                      "a smaller GPU, a busier one, or a bigger grid leaves blocks waiting for blocks that never "
                      "start, and the kernel hangs");
  f.details.push_back("remedy: a block that waits for another by its blockIdx (a chain, a look-back) takes a ticket "
                      "instead (tile = atomicAdd(&next_tile, 1), so that it waits only for blocks that started "
                      "before it); a wait for every block (a grid-wide barrier) is split into two kernel launches, "
                      "or becomes grid.sync() in a cooperative launch");
  f.details.push_back("SCANLAB_SIM_RESIDENT_BLOCKS=N runs exactly N blocks at once and reports the hang as a deadlock");
  f.wait_picture = std::move(blocks);
  report(f);
}

}  // namespace scanlab::sim::detail::coresidency
