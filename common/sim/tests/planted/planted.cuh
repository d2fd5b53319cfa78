// What every planted program shares: checked CUDA calls, a host reference scan, and the exit
// statuses the simulator's tests read. A planted program is an ordinary CUDA program; run on
// the simulator it additionally exits with status 1 whenever the simulator reported an error.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace planted {

// Exit statuses of the program itself (1 is the simulator's "an error was reported").
constexpr int kCorrect = 0;
constexpr int kCudaCallFailed = 2;
constexpr int kWrongResult = 3;
constexpr int kBadArguments = 4;

inline void check(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, call, cudaGetErrorString(status));
  std::exit(kCudaCallFailed);
}

// What a new DeviceBuffer holds: zeros, or what cudaMalloc leaves (for the planted bugs that
// forget to set it).
enum class Fill { zeros, nothing };

// A device copy of a host vector, freed on scope exit.
template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count, Fill fill = Fill::zeros) : count_(count) {
    check(cudaMalloc(&data_, count * sizeof(T)), "cudaMalloc", __FILE__, __LINE__);
    if (fill == Fill::zeros) check(cudaMemset(data_, 0, count * sizeof(T)), "cudaMemset", __FILE__, __LINE__);
  }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) {
    check(cudaMemcpy(data_, host.data(), count_ * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy", __FILE__,
          __LINE__);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { cudaFree(data_); }

  T* get() const { return data_; }
  std::vector<T> to_host() const {
    std::vector<T> host(count_);
    check(cudaMemcpy(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy", __FILE__,
          __LINE__);
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t count_;
};

// Small positive values whose prefix sums stay far from overflow.
inline std::vector<int> test_input(std::size_t n) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<int>(i % 7) + 1;
  return v;
}

inline std::vector<int> inclusive_scan(const std::vector<int>& in) {
  std::vector<int> out(in.size());
  int running = 0;
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = running += in[i];
  return out;
}

// kCorrect, or kWrongResult after naming the first wrong element.
inline int compare(const std::vector<int>& expected, const std::vector<int>& actual) {
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] != actual[i]) {
      std::fprintf(stderr, "wrong result at index %zu: expected %d, got %d\n", i, expected[i], actual[i]);
      return kWrongResult;
    }
  }
  return kCorrect;
}

// kCorrect when out[i] is the sum of the tiles' values before tile i (the look-back programs'
// exclusive scan of one value a tile), or kWrongResult after naming the first wrong tile.
inline int compare_exclusive_sums(const std::vector<unsigned>& values, const std::vector<unsigned>& out) {
  std::vector<int> expected(values.size()), got(out.begin(), out.end());
  unsigned sum = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    expected[i] = static_cast<int>(sum);
    sum += values[i];
  }
  return compare(expected, got);
}

// Waits for the kernels launched so far; a failed kernel is a wrong result, not a crash.
inline bool kernels_succeeded() {
  const cudaError_t status = cudaDeviceSynchronize();
  if (status == cudaSuccess) return true;
  std::fprintf(stderr, "kernel failed: %s\n", cudaGetErrorString(status));
  return false;
}

// The hand-off programs: `launch(message, flag, received)` runs a kernel in which block 0 hands
// `value` over to block 1 through a flag; kCorrect when block 1 received it.
template <class Launch>
int check_hand_off(int value, Launch launch) {
  const DeviceBuffer<int> message(1), received(1);
  const DeviceBuffer<unsigned> flag(1);
  launch(message.get(), flag.get(), received.get());
  if (!kernels_succeeded()) return kWrongResult;
  return compare({value}, received.to_host());
}

// The tile-sum programs of a pipeline: `launch(in, out)` runs `blocks` blocks over
// test_input(blocks * tiles * tile), block b's `tiles` tiles of `tile` elements in a row, and
// out[b * tile + c] must be the sum of element c of each of them.
template <class Launch>
int check_column_sums(unsigned blocks, unsigned tiles, unsigned tile, Launch launch) {
  const std::vector<int> input = test_input(blocks * tiles * tile);
  const DeviceBuffer<int> in(input), out(blocks * tile);
  launch(in.get(), out.get());
  if (!kernels_succeeded()) return kWrongResult;
  std::vector<int> expected(blocks * tile, 0);
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < tiles; ++t)
      for (unsigned c = 0; c < tile; ++c) expected[b * tile + c] += input[(b * tiles + t) * tile + c];
  return compare(expected, out.to_host());
}

// The tile-sum programs: `launch(in, out)` runs a kernel in which each tile of `tile` threads
// writes the sum of its elements of test_input(n) to out[tile's index]; kCorrect when all are right.
template <class Launch>
int check_tile_sums(unsigned n, unsigned tile, Launch launch) {
  const std::vector<int> input = test_input(n);
  const DeviceBuffer<int> in(input), out(n / tile);
  launch(in.get(), out.get());
  if (!kernels_succeeded()) return kWrongResult;
  std::vector<int> expected(n / tile, 0);
  for (unsigned i = 0; i < n; ++i) expected[i / tile] += input[i];
  return compare(expected, out.to_host());
}

// The doubling programs: `launch(in, out)` runs a kernel that writes twice each element of
// test_input(n) to out; kCorrect when every element is right.
template <class Launch>
int check_doubled(unsigned n, Launch launch) {
  const std::vector<int> input = test_input(n);
  const DeviceBuffer<int> in(input), out(n);
  launch(in.get(), out.get());
  if (!kernels_succeeded()) return kWrongResult;
  std::vector<int> expected(n);
  for (unsigned i = 0; i < n; ++i) expected[i] = 2 * input[i];
  return compare(expected, out.to_host());
}

// The status-word programs: `launch(in, words, out)` runs a kernel of two blocks of `threads`
// threads in which block 1 takes the total of block 0's input (`threads` times 0.25) from two
// 64-bit status words and writes it plus 0.5 to out[0]. What it wrote and what it should be;
// nothing is right after a failed kernel.
struct Taken {
  bool right;
  double got, expected;
};
template <class Launch>
Taken status_word_total(unsigned threads, Launch launch) {
  const std::vector<double> input(threads, 0.25);
  const DeviceBuffer<double> in(input);
  const DeviceBuffer<unsigned long long> words(2);
  const DeviceBuffer<double> out(1);
  launch(in.get(), words.get(), out.get());
  const double expected = 0.25 * threads + 0.5;
  if (!kernels_succeeded()) return {false, 0.0, expected};
  const double got = out.to_host()[0];
  return {got == expected, got, expected};
}

// The programs a time limit stops: never returns. It stores to `out` every turn (progress, so the
// phase never ends, as a loop whose bound was read out of bounds may), and its volatile access to
// `turn` gives the other threads a turn first.
__device__ inline void store_forever(int* out, volatile int* turn) {
  for (int k = 0;; ++k) {
    *out = k;
    *turn = k;
  }
}

// An optional positive integer argument, e.g. the threads per block.
inline unsigned argument(int argc, char** argv, int index, unsigned fallback) {
  if (argc <= index) return fallback;
  const long value = std::strtol(argv[index], nullptr, 10);
  if (value <= 0) {
    std::fprintf(stderr, "usage: %s expects a positive number, not '%s'\n", argv[0], argv[index]);
    std::exit(kBadArguments);
  }
  return static_cast<unsigned>(value);
}

}  // namespace planted

#define PLANTED_CHECK(call) ::planted::check((call), #call, __FILE__, __LINE__)
