// In-place Kogge-Stone scan of one block's section in shared memory. Each step reads the
// partial sum `stride` places to the left, then overwrites its own element. The barrier
// between the read and the write is the one that is easy to forget: without it, thread
// i + stride may read section[i] after thread i has already overwritten it in the same step.
//
// Built as is, the barrier is missing; with -DPLANTED_FIXED it is there.
//   usage: kogge_stone_inplace [threads per block, a power of two up to 1024]...
// With several sizes it scans once at each, one after the other (a race first met between two
// lanes of one warp, then between warps).
#include "planted.cuh"

constexpr unsigned kMaxThreads = 1024;

__global__ void kogge_stone_inplace(const int* in, int* out) {
  __shared__ int section[kMaxThreads];
  const unsigned i = threadIdx.x;
  section[i] = in[i];
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();  // the previous step's writes are visible
    int sum = section[i];
    if (i >= stride) sum += section[i - stride];  // expect: race
#ifdef PLANTED_FIXED
    __syncthreads();  // every read of this step happens before any write
#endif
    section[i] = sum;  // expect: race
  }
  out[i] = section[i];
}

int scan_once(unsigned threads) {
  if (threads > kMaxThreads || (threads & (threads - 1)) != 0) return planted::kBadArguments;
  const std::vector<int> input = planted::test_input(threads);
  const planted::DeviceBuffer<int> in(input), out(threads);
  kogge_stone_inplace<<<1, threads>>>(in.get(), out.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return planted::compare(planted::inclusive_scan(input), out.to_host());
}

int main(int argc, char** argv) {
  int status = scan_once(planted::argument(argc, argv, 1, 256));
  for (int size = 2; size < argc; ++size) {
    const int scanned = scan_once(planted::argument(argc, argv, size, 256));
    if (status == 0) status = scanned;  // every size runs; the first failure is the answer
  }
  return status;
}
