// Block 1 waits for block 0's total, a double published as two 64-bit status words: each word
// carries the state in its high half and one 32-bit part of the value in its low half, and is
// stored whole through a volatile pointer, so a word that shows the state holds its part (no
// fence needed). The reader takes the value once both words show the same state. The bug: the
// words are polled through a plain pointer. The loop loads both words each round, so the compiler
// keeps the loads in it, but a plain load beside another block's store is a data race: one
// finding, at the poll's line, whose fix names the volatile and atomic loads. With -DPLANTED_FIXED
// the words are polled through a volatile pointer: the protocol is correct and nothing is stale.
#include <cstring>

#include "planted.cuh"

constexpr unsigned kThreads = 64;
constexpr unsigned long long kPublished = 1;

#ifdef PLANTED_FIXED
using PolledWord = const volatile unsigned long long;
#else
using PolledWord = const unsigned long long;
#endif

__device__ void publish(unsigned long long* words, double value) {
  unsigned parts[2];
  std::memcpy(parts, &value, sizeof value);
  volatile unsigned long long* status = words;
  for (unsigned p = 0; p < 2; ++p) status[p] = kPublished << 32 | parts[p];
}

__global__ void chain(const double* in, unsigned long long* words, double* out) {
  __shared__ double partial[kThreads];
  if (blockIdx.x == 0) {
    // Block 0 sums its input first (a few barriers), so block 1 is already polling.
    partial[threadIdx.x] = in[threadIdx.x];
    for (unsigned stride = kThreads / 2; stride > 0; stride /= 2) {
      __syncthreads();
      if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) publish(words, partial[0]);
    return;
  }
  if (threadIdx.x != 0) return;
  PolledWord* status = words;
  unsigned long long seen[2];
  do {
    for (unsigned p = 0; p < 2; ++p) seen[p] = status[p];  // expect: race
  } while ((seen[0] >> 32) != kPublished || (seen[1] >> 32) != kPublished);
  const unsigned parts[2] = {static_cast<unsigned>(seen[0]), static_cast<unsigned>(seen[1])};
  double value;
  std::memcpy(&value, parts, sizeof value);
  out[0] = value + 0.5;
}

int main() {
  const planted::Taken total = planted::status_word_total(
      kThreads, [](const double* in, unsigned long long* words, double* out) { chain<<<2, kThreads>>>(in, words, out); });
  std::printf("block 1 took %g (expected %g)\n", total.got, total.expected);
  return total.right ? planted::kCorrect : planted::kWrongResult;
}
