// Stream compaction with warp-aggregated atomics, as the CUDA Programming Guide writes it: the
// lanes that hold a value to keep form a coalesced group, its first lane reserves room for all
// of them with one atomicAdd, and the others learn the base by a shuffle. Must run clean and
// keep exactly the positive values. The planted bug broadcasts the base with a full-warp
// __shfl_sync, as if every lane were there: the lanes without a value never arrive.
#include <cooperative_groups.h>

#include <algorithm>

#include "planted.cuh"

namespace cg = cooperative_groups;

__device__ int reserve_slot(int* counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  int base = 0;
  if (active.thread_rank() == 0) base = atomicAdd(counter, static_cast<int>(active.size()));
#ifdef PLANTED_FIXED
  base = active.shfl(base, 0);
#else
  base = __shfl_sync(0xffffffffu, base, 0);  // expect: warp-mask
#endif
  return base + static_cast<int>(active.thread_rank());
}

__global__ void keep_positive(const int* in, int n, int* out, int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) out[reserve_slot(count)] = in[i];
}

int main() {
  constexpr int n = 1000;
  std::vector<int> input(n);
  for (int i = 0; i < n; ++i) input[i] = (i * 37) % 11 - 5;  // some positive, some not
  const planted::DeviceBuffer<int> in(input), out(n), count(1);
  keep_positive<<<(n + 127) / 128, 128>>>(in.get(), n, out.get(), count.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> kept;
  for (int v : input)
    if (v > 0) kept.push_back(v);
  const int got = count.to_host()[0];
  if (got != static_cast<int>(kept.size())) {
    std::fprintf(stderr, "kept %d values, expected %zu\n", got, kept.size());
    return planted::kWrongResult;
  }
  std::vector<int> result = out.to_host();
  result.resize(kept.size());
  std::sort(result.begin(), result.end());
  std::sort(kept.begin(), kept.end());
  return planted::compare(kept, result);
}
