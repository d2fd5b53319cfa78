// Single-pass scan with adjacent synchronization: block b scans its section, waits until
// block b-1 has published the sum of everything before it, adds its own total and publishes
// that for block b+1. The chain only makes progress if block b-1 is running or done whenever
// block b waits. Numbering sections by blockIdx.x does not promise that: blocks start in any
// order, and only some of them fit on the device at once. With -DPLANTED_FIXED sections are
// numbered in the order blocks start, from an atomic counter, so every block waits only for a
// block that started before it.
//   usage: stream_scan [elements]
#include "planted.cuh"

constexpr unsigned kSection = 64;  // elements per block, one per thread

__global__ void stream_scan(const int* in, int* out, int* prefix, int* published, unsigned* next_section,
                            unsigned n) {
  __shared__ int section[kSection];
  __shared__ int carry;
#ifdef PLANTED_FIXED
  __shared__ unsigned started;
  if (threadIdx.x == 0) started = atomicAdd(next_section, 1u);
  __syncthreads();
  const unsigned b = started;
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
    int before = 0;
    if (b > 0) {
      volatile int* ready = published;
      while (ready[b - 1] == 0) {  // expect: deadlock, co-residency
      }
      __threadfence();  // prefix[b - 1] is read after its flag
      before = static_cast<volatile int*>(prefix)[b - 1];
    }
    prefix[b] = before + section[kSection - 1];
    __threadfence();  // prefix[b] is visible before the flag that announces it
    atomicExch(&published[b], 1);
    carry = before;
  }
  __syncthreads();
  if (i < n) out[i] = section[t] + carry;
}

int main(int argc, char** argv) {
  const unsigned n = planted::argument(argc, argv, 1, 8 * kSection - 5);
  const unsigned blocks = (n + kSection - 1) / kSection;
  const std::vector<int> input = planted::test_input(n);
  const planted::DeviceBuffer<int> in(input), out(n), prefix(blocks), published(blocks);
  const planted::DeviceBuffer<unsigned> next_section(1);
  stream_scan<<<blocks, kSection>>>(  // expect: co-residency
      in.get(), out.get(), prefix.get(), published.get(), next_section.get(), n);
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return planted::compare(planted::inclusive_scan(input), out.to_host());
}
