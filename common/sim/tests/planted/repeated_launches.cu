// A benchmark's habit: the same kernel launched again and again on the same data. The simulator
// replays a launch that repeats an earlier one exactly instead of running it; this program
// checks that every launch still has the effect it has on a GPU where something differs: the
// data, device memory the kernel changes itself, a __device__ variable, a printf.
#include <cstdio>
#include <vector>

#include "planted.cuh"

constexpr int kCount = 3000;
constexpr int kThreads = 256;
constexpr int kBlocks = (kCount + kThreads - 1) / kThreads;

__global__ void scale(const int* in, int* out, int n, int factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factor;
}

__global__ void increment(int* values, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] += 1;
}

__device__ int offset;

__global__ void add_offset(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + offset;
}

__global__ void say_hello() { printf("hello from the kernel\n"); }

int failures = 0;

void expect(const std::vector<int>& got, const std::vector<int>& input, int factor, int plus, const char* what) {
  for (int i = 0; i < kCount; ++i) {
    if (got[i] != input[i] * factor + plus) {
      std::printf("%s: element %d is %d, expected %d\n", what, i, got[i], input[i] * factor + plus);
      ++failures;
      return;
    }
  }
}

int main() {
  std::vector<int> input(kCount), other(kCount);
  for (int i = 0; i < kCount; ++i) {
    input[i] = i % 101;
    other[i] = 7 * i % 13;
  }
  planted::DeviceBuffer<int> in(input), out(kCount), values(input);

  // Ten identical launches: the third and later repeat the second exactly (the first found
  // the output buffer as it was before any launch).
  for (int launch = 0; launch < 10; ++launch) scale<<<kBlocks, kThreads>>>(in.get(), out.get(), kCount, 3);
  expect(out.to_host(), input, 3, 0, "ten identical launches");

  // The same launch on new data computes from the new data.
  PLANTED_CHECK(cudaMemcpy(in.get(), other.data(), kCount * sizeof(int), cudaMemcpyHostToDevice));
  scale<<<kBlocks, kThreads>>>(in.get(), out.get(), kCount, 3);
  expect(out.to_host(), other, 3, 0, "the same launch on new data");

  // A kernel that changes what it reads: each launch starts from what the last one left.
  for (int launch = 0; launch < 5; ++launch) increment<<<kBlocks, kThreads>>>(values.get(), kCount);
  expect(values.to_host(), input, 1, 5, "five increments");

  // A __device__ variable is no cudaMalloc buffer: its new value must be read.
  for (int value : {4, 4, 4, 9}) {
    PLANTED_CHECK(cudaMemcpyToSymbol(offset, &value, sizeof value));
    add_offset<<<kBlocks, kThreads>>>(in.get(), out.get(), kCount);
  }
  expect(out.to_host(), other, 1, 9, "a __device__ variable changed between launches");

  // A kernel that prints prints at every launch.
  for (int launch = 0; launch < 3; ++launch) say_hello<<<1, 1>>>();
  PLANTED_CHECK(cudaDeviceSynchronize());

  if (failures) return planted::kWrongResult;
  std::printf("every launch had its effect\n");
  return planted::kCorrect;
}
