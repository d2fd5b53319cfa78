// A chained scan of tile totals whose blocks hand on their prefixes through volatile stores and
// an atomicAdd flag, with no fence on either side. Each block takes a tile number from a ticket,
// sums its tile, waits until the tile before has raised its flag, reads that tile's inclusive
// prefix through a volatile pointer, and publishes its own the same way. Volatile accesses are
// strong, so they never race, but they are relaxed: nothing orders the prefix before the flag
// (the writer has no release pattern), and on a GPU the next block may go on with a stale
// prefix. That is an error, whichever way the reader polls. With -DPLANTED_FIXED a
// __threadfence() stands between the prefix and the flag, and another after the wait.
//   usage: chained_volatile_scan load|atomic
//     load:   the reader polls the flag with volatile loads
//     atomic: the reader polls it with atomicAdd(flag, 0), a read-modify-write
#include <cstring>

#include "planted.cuh"

constexpr unsigned kThreads = 64;
constexpr unsigned kBlocks = 16;

__device__ unsigned next_tile = 0;

__global__ void chained_scan(const int* in, int* inclusive, unsigned* ready, int* tile_prefix, bool poll_atomically) {
  __shared__ unsigned tile;
  __shared__ int tile_sum;
  if (threadIdx.x == 0) {
    tile = atomicAdd(&next_tile, 1u);
    tile_sum = 0;
  }
  __syncthreads();
  atomicAdd(&tile_sum, in[tile * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x != 0) return;
  int before = 0;
  if (tile > 0) {
    if (poll_atomically) {
      while (atomicAdd(&ready[tile - 1], 0u) == 0) {
      }
    } else {
      const volatile unsigned* flag = &ready[tile - 1];
      while (*flag == 0) {
      }
    }
#ifdef PLANTED_FIXED
    __threadfence();
#endif
    before = static_cast<volatile int*>(tile_prefix)[tile - 1];  // expect: race
  }
  static_cast<volatile int*>(tile_prefix)[tile] = before + tile_sum;  // expect: race
#ifdef PLANTED_FIXED
  __threadfence();
#endif
  atomicAdd(&ready[tile], 1u);
  inclusive[tile] = before + tile_sum;
}

int main(int argc, char** argv) {
  if (argc != 2 || (std::strcmp(argv[1], "load") != 0 && std::strcmp(argv[1], "atomic") != 0))
    return planted::kBadArguments;
  const bool poll_atomically = std::strcmp(argv[1], "atomic") == 0;
  const std::vector<int> input = planted::test_input(kBlocks * kThreads);
  const planted::DeviceBuffer<int> in(input), inclusive(kBlocks), tile_prefix(kBlocks);
  const planted::DeviceBuffer<unsigned> ready(kBlocks);
  chained_scan<<<kBlocks, kThreads>>>(in.get(), inclusive.get(), ready.get(), tile_prefix.get(), poll_atomically);
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  std::vector<int> tile_totals(kBlocks, 0);
  for (unsigned i = 0; i < input.size(); ++i) tile_totals[i / kThreads] += input[i];
  return planted::compare(planted::inclusive_scan(tile_totals), inclusive.to_host());
}
