// A block sums a row whose length is not a multiple of the tile through a pipeline shared by the
// block: its first warp produces (make_pipeline's producer count), each lane copying one element
// of a tile into the stage it acquired; its second warp consumes. Here a lane with no element in
// the last tile skips producer_commit() with its copy, so that stage's round never completes and
// the consumers wait for it for ever: a deadlock. The fixed twin commits on every path.
#include <cooperative_groups.h>
#include <cuda/pipeline>

#include "planted.cuh"

// A __shared__ pipeline state is set up by make_pipeline(), not by a constructor: nvcc's warning
// does not apply.
#pragma nv_diag_suppress static_var_with_dynamic_init

namespace cg = cooperative_groups;

constexpr unsigned kStages = 2, kWarp = 32, kRow = 3 * kWarp + 5, kTiles = (kRow + kWarp - 1) / kWarp;

__global__ void sum_rows(const int* in, int* out) {
  __shared__ int stages[kStages][kWarp];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
  auto pipe = cuda::make_pipeline(cg::this_thread_block(), &state, kWarp);
  const unsigned lane = threadIdx.x % kWarp;
  const int* row = in + blockIdx.x * kRow;
  if (threadIdx.x < kWarp) {
    for (unsigned t = 0; t < kTiles; ++t) {
      const unsigned i = t * kWarp + lane;
      pipe.producer_acquire();
#ifdef PLANTED_FIXED
      if (i < kRow) cuda::memcpy_async(&stages[t % kStages][lane], &row[i], sizeof(int), pipe);
      pipe.producer_commit();
#else
      if (i < kRow) {
        cuda::memcpy_async(&stages[t % kStages][lane], &row[i], sizeof(int), pipe);
        pipe.producer_commit();
      }
#endif
    }
    return;
  }
  int sum = 0;
  for (unsigned t = 0; t < kTiles; ++t) {
    pipe.consumer_wait();  // expect: deadlock
    if (t * kWarp + lane < kRow) sum += stages[t % kStages][lane];
    pipe.consumer_release();
  }
  for (unsigned offset = kWarp / 2; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) out[blockIdx.x] = sum;
}

int main() {
  constexpr unsigned kBlocks = 2;
  const std::vector<int> input = planted::test_input(kBlocks * kRow);
  const planted::DeviceBuffer<int> in(input), out(kBlocks);
  sum_rows<<<kBlocks, 2 * kWarp>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> expected(kBlocks, 0);
  for (unsigned b = 0; b < kBlocks; ++b)
    for (unsigned i = 0; i < kRow; ++i) expected[b] += input[b * kRow + i];
  return planted::compare(expected, out.to_host());
}
