// Single-pass scan with a look-back: block b publishes its section's total at once (state 1),
// then walks back over the sections before it, adding totals until it meets one whose
// inclusive prefix is known (state 2), and publishes its own inclusive prefix. Each step waits
// while the section it looks at has published nothing. Numbering sections by blockIdx.x makes
// a block wait for blocks with lower indices, which need not have started: with blocks started
// last first, 16 at once (SCANLAB_SIM_RESIDENT_BLOCKS=16), the 16 running blocks all wait for
// block 23, which never starts. Under the default settings the simulator then starts every
// block, since an H100 holds all 40 at once, and warns that the kernel relied on that. With
// -DPLANTED_FIXED a block takes its section number from an atomic counter (a ticket), so it
// waits only for blocks that started before it.
//   usage: lookback_by_block_index [elements]
#include "planted.cuh"

constexpr unsigned kSection = 32;  // elements per block, one per thread

__global__ void lookback_scan(const int* in, int* out, int* total, int* inclusive, int* state, unsigned* next_section,
                              unsigned n) {
  __shared__ int section[kSection];
  __shared__ int carry;
#ifdef PLANTED_FIXED
  __shared__ unsigned ticket;
  if (threadIdx.x == 0) ticket = atomicAdd(next_section, 1u);
  __syncthreads();
  const unsigned b = ticket;
#else
  const unsigned b = blockIdx.x;
#endif
  const unsigned t = threadIdx.x;
  const unsigned i = b * kSection + t;
  section[t] = i < n ? in[i] : 0;
  for (unsigned stride = 1; stride < kSection; stride *= 2) {
    __syncthreads();
    const int left = t >= stride ? section[t - stride] : 0;
    __syncthreads();
    section[t] += left;
  }
  __syncthreads();
  if (t == 0) {
    const int own = section[kSection - 1];
    total[b] = own;
    __threadfence();  // the total is visible before the state that announces it
    atomicExch(&state[b], 1);
    int before = 0;
    for (unsigned j = b; j > 0; --j) {
      volatile int* published = state;
      int seen;
      while ((seen = published[j - 1]) == 0) {  // expect: deadlock, co-residency
      }
      __threadfence();  // the value is read after its state
      if (seen == 2) {
        before += static_cast<volatile int*>(inclusive)[j - 1];
        break;
      }
      before += static_cast<volatile int*>(total)[j - 1];
    }
    inclusive[b] = before + own;
    __threadfence();
    atomicExch(&state[b], 2);
    carry = before;
  }
  __syncthreads();
  if (i < n) out[i] = section[t] + carry;
}

int main(int argc, char** argv) {
  const unsigned n = planted::argument(argc, argv, 1, 40 * kSection - 3);
  const unsigned blocks = (n + kSection - 1) / kSection;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n), total(blocks), inclusive(blocks), state(blocks);
  const planted::DeviceBuffer<unsigned> next_section(1);
  lookback_scan<<<blocks, kSection>>>(  // expect: co-residency
      in.get(), out.get(), total.get(), inclusive.get(), state.get(), next_section.get(), n);
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return planted::compare(planted::inclusive_scan(input), out.to_host());
}
