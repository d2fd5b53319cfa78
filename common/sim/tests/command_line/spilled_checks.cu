// Run with SCANLAB_SIM_SPILL=always and SCANLAB_SIM_SPILL_DIR=<dir> <dir>: every buffer's checks
// are kept in a file in <dir>. The program counts its mappings of that file, while a buffer lives
// and after it is freed, and its kernels make one race and one read of never-written memory,
// which must be reported as they are with the checks in memory (the read of a[i + 1] before its
// thread wrote it is also a read of never-written memory).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

constexpr int kN = 1 << 18;  // 1 MiB of ints: whole pages of byte map and shadow

// Each thread writes its element, then reads its right neighbour's with no barrier between.
__global__ void read_neighbour(int* a, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = i;  // expect: write
  if (i + 1 < n) out[i] = a[i + 1];  // expect: race
}

__global__ void sum_unwritten(const int* never_written, int* out) {
  out[threadIdx.x] = never_written[threadIdx.x] + 1;  // expect: unwritten
}

__global__ void fill(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 2 * i;
}

int mappings_of(const char* dir) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  int count = 0;
  while (std::getline(maps, line))
    if (line.find(std::string(" ") + dir + "/") != std::string::npos) ++count;
  return count;
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  int *a, *out, *never_written;
  cudaMalloc(&a, kN * sizeof(int));
  cudaMalloc(&out, kN * sizeof(int));
  cudaMalloc(&never_written, 32 * sizeof(int));
  std::printf("mappings while the buffers live: %d\n", mappings_of(argv[1]) > 0 ? 1 : 0);

  read_neighbour<<<kN / 256, 256>>>(a, out, kN);
  sum_unwritten<<<1, 32>>>(never_written, out);
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(out);
  cudaFree(never_written);
  std::printf("mappings after cudaFree: %d\n", mappings_of(argv[1]));

  // A new buffer where the old ones were: its checks start from nothing.
  int* b;
  cudaMalloc(&b, kN * sizeof(int));
  fill<<<kN / 256, 256>>>(b, kN);
  static int host[kN];
  cudaMemcpy(host, b, sizeof host, cudaMemcpyDeviceToHost);
  long long wrong = 0;
  for (int i = 0; i < kN; ++i) wrong += host[i] != 2 * i;
  std::printf("wrong elements of the new buffer: %lld\n", wrong);
  cudaFree(b);
  return 0;
}
