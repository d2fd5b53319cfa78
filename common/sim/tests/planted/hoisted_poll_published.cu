// A look-back in miniature: block 1 takes a ticket, reads block 0's first status word (its
// aggregate, then its inclusive prefix, as a look-back scan publishes them), takes another
// ticket and then waits for block 0's second word. Block 0 publishes with volatile stores; block 1
// reads through a plain pointer. The compiler hoists the wait's load out of its loop, so the loop
// tests the copy in a register for ever and the watchdog stops the spin. Block 1's first read
// also meets block 0's store of its inclusive prefix with nothing ordering them, a race; but it
// is the same plain reads in the same function, one mistake with the spin's fix, so the student
// is told one finding, the spin's. With -DPLANTED_FIXED block 1 reads through a volatile pointer,
// with a __threadfence() after its wait.
#include "planted.cuh"

constexpr unsigned kThreads = 32;
constexpr unsigned kAggregate = 1, kInclusive = 2;

#ifdef PLANTED_FIXED
using StatusWord = const volatile unsigned;
#else
using StatusWord = const unsigned;
#endif

__global__ void look_back(unsigned* status, unsigned* tickets, int* totals) {
  if (threadIdx.x != 0) return;
  volatile int* const published = totals;
  volatile unsigned* const words = status;
  if (blockIdx.x == 0) {
    published[0] = 1;
    __threadfence();
    words[0] = kAggregate;
    atomicAdd(tickets, 1u);
    words[0] = kInclusive;
    atomicAdd(tickets, 1u);
    words[1] = kInclusive;
    return;
  }
  StatusWord* const word = status;
  atomicAdd(tickets, 1u);
  const unsigned first = word[0];
  atomicAdd(tickets, first == 0 ? 2u : 1u);  // a look at the tile before: counted as a wait when empty
  while (word[1] != kInclusive) {  // expect: deadlock
  }
#ifdef PLANTED_FIXED
  __threadfence();
#endif
  published[1] = published[0] + 2;
}

int main() {
  const planted::DeviceBuffer<unsigned> status(2), tickets(1);
  const planted::DeviceBuffer<int> totals(2);
  look_back<<<2, kThreads>>>(status.get(), tickets.get(), totals.get());
  if (!planted::kernels_succeeded()) return planted::kWrongResult;
  return planted::compare({1, 3}, totals.to_host());
}
