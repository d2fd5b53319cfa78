// The "last block" hand-off as NVIDIA documents it (the CUDA Programming Guide's __threadfence()
// example, the threadFenceReduction sample): each block stores its partial sum, fences, and takes
// a ticket with atomicInc; the block that draws the last ticket reads every partial sum with
// plain loads, with no fence after its ticket. The writers' side is a release pattern; the
// reader's ticket is an atomic read-modify-write, which the PTX memory model does not make an
// acquire, so the model leaves the reads unordered. On a GPU the ticket reads the writers'
// release sequence and the pattern works, so the simulator reports a warning (exit status 0),
// not a race, for the reads and for the write the last block leaves over a partial sum. With -DPLANTED_FIXED a __threadfence() follows the ticket, and the run is clean.
//   usage: ticket_handoff block|thread
//     block:  thread 0 takes the ticket, and after a barrier every thread of the last block reads
//             some of the partial sums (as the sample does)
//     thread: thread 0 takes the ticket and reads them all itself
#include <cstring>

#include "planted.cuh"

constexpr unsigned kThreads = 64;
constexpr unsigned kBlocks = 24;

#ifdef PLANTED_FIXED
constexpr bool kFenceAfterTicket = true;
#else
constexpr bool kFenceAfterTicket = false;
#endif

__device__ unsigned tickets_drawn = 0;  // atomicInc wraps it back to 0 at the last ticket

__global__ void total_of_partials(const int* in, int* partial, int* total, bool whole_block_reads) {
  __shared__ int block_sum;
  __shared__ bool drew_last;
  if (threadIdx.x == 0) block_sum = 0;
  __syncthreads();
  atomicAdd(&block_sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = block_sum;  // expect: race
    __threadfence();
    drew_last = atomicInc(&tickets_drawn, gridDim.x - 1) == gridDim.x - 1;
  }
  if (whole_block_reads) __syncthreads();  // every thread of the block reads drew_last after it
  if (whole_block_reads ? drew_last : threadIdx.x == 0 && drew_last) {
    if (kFenceAfterTicket) __threadfence();
    const unsigned first = whole_block_reads ? threadIdx.x : 0, step = whole_block_reads ? blockDim.x : 1;
    int sum = 0;
    for (unsigned b = first; b < gridDim.x; b += step) sum += partial[b];  // expect: race
    atomicAdd(total, sum);
    // The sample leaves its result over block 0's partial sum: a write after another block's
    // write, ordered by the same ticket. Here each reader writes over a partial sum it read, of
    // another block, so that there is such a write whichever block draws the last ticket.
    const unsigned over = whole_block_reads ? first : (blockIdx.x == 0 ? 1 : 0);
    if (over < gridDim.x && over != blockIdx.x) partial[over] = -1;  // expect: race
  }
}

int main(int argc, char** argv) {
  if (argc != 2 || (std::strcmp(argv[1], "block") != 0 && std::strcmp(argv[1], "thread") != 0))
    return planted::kBadArguments;
  const bool whole_block_reads = std::strcmp(argv[1], "block") == 0;
  const std::vector<int> input = planted::test_input(kBlocks * kThreads);
  const planted::DeviceBuffer<int> in(input), partial(kBlocks), total(1);
  total_of_partials<<<kBlocks, kThreads>>>(in.get(), partial.get(), total.get(), whole_block_reads);
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  int expected = 0;
  for (int v : input) expected += v;
  return planted::compare({expected}, total.to_host());
}
