// Block 1 reads block 0's total, published as two 64-bit status words (the state in the high half,
// one 32-bit part of the value in the low half) and polled through a volatile pointer. The bug:
// block 0 stores the words through a plain pointer, so the reader's polls race with the stores.
// With -DPLANTED_FIXED the words are stored through a volatile pointer.
//
// The host code has its own out-of-line copies of std::string operations that the simulator's
// reports are made of, as a test harness has: instrumented, as all of the program is. The
// simulator must build its report with its own copies: the race is found at a volatile read,
// which took a serial turn, under a lock of the race detector, and a report built with the
// program's copies would give the processor back there, on several OS threads, and the next
// thread to poll would wait for that lock for ever.
#include <cstring>
#include <string>

#include "planted.cuh"

constexpr unsigned kThreads = 64;
constexpr unsigned long long kPublished = 1;

#ifdef PLANTED_FIXED
using StoredWord = volatile unsigned long long;
#else
using StoredWord = unsigned long long;
#endif

__global__ void chain(const double* in, unsigned long long* words, double* out) {
  __shared__ double partial[kThreads];
  if (blockIdx.x == 0) {
    if (threadIdx.x != 0) return;
    const double total = in[0] * kThreads;
    unsigned parts[2];
    std::memcpy(parts, &total, sizeof parts);
    StoredWord* status = words;
    for (unsigned p = 0; p < 2; ++p) status[p] = kPublished << 32 | parts[p];  // expect: race
    return;
  }
  // Block 1 works a while first (a few barriers), so that block 0 has stored the words; then
  // each of its threads polls them.
  partial[threadIdx.x] = in[threadIdx.x];
  for (unsigned stride = kThreads / 2; stride > 0; stride /= 2) {
    __syncthreads();
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
  }
  const volatile unsigned long long* status = words;
  unsigned long long seen[2];
  do {
    for (unsigned p = 0; p < 2; ++p) seen[p] = status[p];  // expect: race
  } while ((seen[0] >> 32) != kPublished || (seen[1] >> 32) != kPublished);
  const unsigned parts[2] = {static_cast<unsigned>(seen[0]), static_cast<unsigned>(seen[1])};
  double value;
  std::memcpy(&value, parts, sizeof value);
  if (threadIdx.x == 0) out[0] = value + 0.5;
}

int main() {
  const planted::Taken total = planted::status_word_total(
      kThreads, [](const double* in, unsigned long long* words, double* out) { chain<<<2, kThreads>>>(in, words, out); });
  // Out of line, as a larger program's are: called through pointers.
  using Append = std::string (*)(std::string&&, const char*);
  using Decimal = std::string (*)(unsigned);
  Append volatile append = &std::operator+<char, std::char_traits<char>, std::allocator<char>>;
  Decimal volatile decimal = &std::to_string;
  const std::string message = append(decimal(1), " took ") + std::to_string(total.got);
  std::printf("block %s (expected %g)\n", message.c_str(), total.expected);
  return total.right ? planted::kCorrect : planted::kWrongResult;
}
