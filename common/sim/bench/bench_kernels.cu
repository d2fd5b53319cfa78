#include "bench_kernels.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace scanlab::sim::bench {
namespace {

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
  std::exit(EXIT_FAILURE);
}

__global__ void barrier_rounds_kernel(int* out, unsigned rounds, unsigned accesses) {
  // Double-buffered: each round reads the buffer the previous round wrote, so the one barrier
  // per round is all the ordering it needs.
  __shared__ int slots[2][kBarrierBlockThreads];
  const unsigned t = threadIdx.x;
  // Computed once, as a GPU compiler would (blockDim is constant): a division every round would
  // be timed with the barrier.
  const unsigned neighbour = (t + 1) % blockDim.x;
  int sum = 0;
  slots[0][t] = static_cast<int>(t);
  slots[1][t] = static_cast<int>(t);
  for (unsigned r = 0; r < rounds; ++r) {
    __syncthreads();
    const unsigned read = r % 2;
    if (accesses >= 1) sum += slots[read][neighbour];
    if (accesses >= 2) slots[read ^ 1][t] = sum;
  }
  out[t] = sum;
}

constexpr unsigned kSection = HierarchicalScan::kSection;

static_assert(1u << HierarchicalScan::kBarriersPerSection == kSection, "one barrier per doubling of the stride");

// Inclusive Kogge-Stone scan of each section of kSection elements, one element per thread;
// the last thread also records the section's total when section_sums is given.
__global__ void scan_sections(const int* in, int* out, int* section_sums, unsigned n) {
  __shared__ int buffers[2][kSection];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * kSection + t;
  unsigned current = 0;
  buffers[current][t] = i < n ? in[i] : 0;
  for (unsigned stride = 1; stride < kSection; stride *= 2) {
    __syncthreads();
    const int own = buffers[current][t];
    buffers[current ^ 1][t] = t >= stride ? own + buffers[current][t - stride] : own;
    current ^= 1;
  }
  if (i < n) out[i] = buffers[current][t];
  if (section_sums && t == kSection - 1) section_sums[blockIdx.x] = buffers[current][t];
}

// Adds to every element of section s + 1 the scanned total of sections 0..s.
__global__ void add_carries(int* out, const int* scanned_sums, unsigned n) {
  const unsigned i = (blockIdx.x + 1) * kSection + threadIdx.x;
  if (i < n) out[i] += scanned_sums[blockIdx.x];
}

}  // namespace

void barrier_rounds(unsigned rounds, unsigned threads, unsigned accesses) {
  static int* out = nullptr;
  if (!out) check(cudaMalloc(&out, kBarrierBlockThreads * sizeof(int)), "cudaMalloc");
  if (threads == 0 || threads > kBarrierBlockThreads) {
    std::fprintf(stderr, "barrier_rounds: %u threads; 1 to %u supported\n", threads, kBarrierBlockThreads);
    std::exit(EXIT_FAILURE);
  }
  barrier_rounds_kernel<<<1, threads>>>(out, rounds, accesses);
  check(cudaDeviceSynchronize(), "barrier_rounds_kernel");
}

HierarchicalScan::HierarchicalScan(const std::vector<int>& input)
    : n_(static_cast<unsigned>(input.size())), sections_((n_ + kSection - 1) / kSection) {
  if (input.empty() || input.size() > kMaxElements) {
    std::fprintf(stderr, "HierarchicalScan: %zu elements; 1 to %u supported\n", input.size(), kMaxElements);
    std::exit(EXIT_FAILURE);
  }
  check(cudaMalloc(&in_, n_ * sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&out_, n_ * sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&section_sums_, sections_ * sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&scanned_sums_, sections_ * sizeof(int)), "cudaMalloc");
  check(cudaMemcpy(in_, input.data(), n_ * sizeof(int), cudaMemcpyHostToDevice), "cudaMemcpy");
}

HierarchicalScan::~HierarchicalScan() {
  cudaFree(in_);
  cudaFree(out_);
  cudaFree(section_sums_);
  cudaFree(scanned_sums_);
}

void HierarchicalScan::run() {
  scan_sections<<<sections_, kSection>>>(in_, out_, section_sums_, n_);
  scan_sections<<<1, kSection>>>(section_sums_, scanned_sums_, nullptr, sections_);
  if (sections_ > 1) add_carries<<<sections_ - 1, kSection>>>(out_, scanned_sums_, n_);
  check(cudaDeviceSynchronize(), "hierarchical scan");
}

void HierarchicalScan::run_sections() {
  scan_sections<<<sections_, kSection>>>(in_, out_, nullptr, n_);
  check(cudaDeviceSynchronize(), "Kogge-Stone sections");
}

std::vector<int> HierarchicalScan::result() const {
  std::vector<int> host(n_);
  check(cudaMemcpy(host.data(), out_, n_ * sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return host;
}

}  // namespace scanlab::sim::bench
