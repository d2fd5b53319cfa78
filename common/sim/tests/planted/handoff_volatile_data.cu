// A hand-off with the value itself written and read through volatile pointers, as the
// textbook's stream scan does, and one side's fence left out: `writer` leaves out the fence
// between the value and the flag, `reader` the one between the flag and the value. Volatile
// accesses are strong but relaxed: two of them never race, but they order nothing around them,
// so the value read after the flag may be the old one. That is reported as a warning (a stale
// value, not a data race). With -DPLANTED_FIXED both sides fence.
//   usage: handoff_volatile_data writer|reader
#include <cstring>

#include "planted.cuh"

constexpr int kMessage = 42;

__global__ void hand_off(int* message, unsigned* flag, int* received, bool writer_fences, bool reader_fences) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    *static_cast<volatile int*>(message) = kMessage;  // expect: race
    if (writer_fences) __threadfence();
    *static_cast<volatile unsigned*>(flag) = 1;
  } else {
    const volatile unsigned* seen = flag;
    while (*seen == 0) {
    }
    if (reader_fences) __threadfence();
    *received = *static_cast<volatile int*>(message);  // expect: race
  }
}

int main(int argc, char** argv) {
  if (argc != 2 || (std::strcmp(argv[1], "writer") != 0 && std::strcmp(argv[1], "reader") != 0))
    return planted::kBadArguments;
#ifdef PLANTED_FIXED
  const bool writer_fences = true, reader_fences = true;
#else
  const bool writer_fences = std::strcmp(argv[1], "writer") != 0;
  const bool reader_fences = std::strcmp(argv[1], "reader") != 0;
#endif
  return planted::check_hand_off(kMessage, [=](int* message, unsigned* flag, int* received) {
    hand_off<<<2, 32>>>(message, flag, received, writer_fences, reader_fences);
  });
}
