// What the simulator keeps per word of global memory that a kernel touches with race checks
// on: the word itself, its byte map (memory_check: a byte a byte) and its race shadow (16 bytes;
// common/sim/README.md, "Memory use"). Measured as the growth of the process's resident size
// while a kernel reads and writes every word of a fresh buffer once.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>

#include <scanlab/sim/diagnostics.hpp>

#include "memory_use_kernels.hpp"

namespace {

std::size_t resident_bytes() {
    long pages_total = 0, pages_resident = 0;
    FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    const int read = std::fscanf(f, "%ld %ld", &pages_total, &pages_resident);
    std::fclose(f);
    return read == 2 ? static_cast<std::size_t>(pages_resident) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

// Race checks on, every launch run (a kept run's copy is no part of what the checks cost), and
// a first run that takes what does not grow with the buffer (fiber stacks, shared-memory shadow).
void check_races_and_warm_up() {
    scanlab::sim::Schedule s = scanlab::sim::get_schedule();
    s.race_check = true;
    s.replay = false;
    scanlab::sim::set_schedule(s);
    int* warm = filled_words(std::size_t{1} << 16);
    ASSERT_NE(warm, nullptr);
    ASSERT_TRUE(increment_each_word(warm, std::size_t{1} << 16));
    free_words(warm);
}

TEST(SimMemoryUse, AGlobalWordTakesAtMost24BytesWithItsShadows) {
    ASSERT_NO_FATAL_FAILURE(check_races_and_warm_up());
    constexpr std::size_t kWords = std::size_t{1} << 22;  // 16 MiB of ints
    const std::size_t before = resident_bytes();
    ASSERT_GT(before, 0u) << "/proc/self/statm is not readable";
    int* data = filled_words(kWords);
    ASSERT_NE(data, nullptr);
    ASSERT_TRUE(increment_each_word(data, kWords));
    const std::size_t grown = resident_bytes() - before;
    free_words(data);
    // 4 bytes of data, 4 of byte map, 16 of race shadow, and 2 of slack for page rounding (huge
    // pages) and the runtime's own growth (the host holds no copy of the buffer). A shadow cell of the 84 bytes this once took would
    // grow it by about 92 bytes a word.
    constexpr std::size_t kBytesPerWord = 4 + 4 + 16;
    EXPECT_LE(grown, kWords * (kBytesPerWord + 2)) << "grew by " << grown / kWords << " bytes a word";
}

// A freed buffer gives back its bytes, byte map and race shadow: a program that scans ever larger
// arrays, freeing each before allocating the next (a sweep over sizes), holds about what its
// largest size needs, not the sum of every size (twice the largest, for doubling sizes). Kept,
// the byte maps and shadows of the freed buffers would stay resident: 20 bytes a word.
TEST(SimMemoryUse, FreedBuffersGiveTheirShadowsBack) {
    ASSERT_NO_FATAL_FAILURE(check_races_and_warm_up());
    const std::size_t before = resident_bytes();
    ASSERT_GT(before, 0u) << "/proc/self/statm is not readable";
    constexpr std::size_t kLargest = std::size_t{1} << 22;  // 16 MiB of ints
    std::size_t all_sizes = 0;
    for (std::size_t words = kLargest >> 4; words <= kLargest; words <<= 1) {  // each larger than all before
        int* data = filled_words(words);
        ASSERT_NE(data, nullptr);
        ASSERT_TRUE(increment_each_word(data, words));
        free_words(data);
        all_sizes += words;
    }
    const std::size_t after = resident_bytes();
    const std::size_t grown = after > before ? after - before : 0;
    // What stays after the last buffer is freed: page rounding and the runtime's own growth,
    // at most 2 bytes a word of the largest size. Keeping the freed byte maps and shadows
    // would leave 20 bytes a word of every size.
    EXPECT_LE(grown, kLargest * 2) << "kept " << grown / all_sizes << " bytes a word of the " << all_sizes
                                   << " words freed";
}

// What the memory model keeps of a chain of hand-offs (block b acquires the flag of block
// b - 1, then releases its own: each flag carries what every block before it published, as in
// lab 07's single-pass scan) grows with the length of the chain, not with its square: flags
// share the marks they carry (runtime/base/mark_map.hpp). Each flag keeps its own path in two maps
// (what was published, what was seen) of a few nodes, plus its marks: 3.4 to 3.6 KiB a link
// measured at 1024 to 4096 links. The bound is twice that; a copy of every earlier block's marks
// in each flag, as the simulator once kept them, grew by 195 KiB a link at 2048 links (389
// MiB), and by more with every link.
TEST(SimMemoryUse, AChainOfHandOffsTakesMemoryLinearInItsLength) {
    scanlab::sim::Schedule s = scanlab::sim::get_schedule();
    s.race_check = true;
    s.replay = false;  // a kept run's copy is no part of what the checks cost
    scanlab::sim::set_schedule(s);
    ASSERT_TRUE(chain_of_handoffs(64));  // what does not grow with the chain (fiber stacks, ...)
    scanlab::sim::take_reports();
    constexpr unsigned kLinks = 2048;
    const std::size_t before = resident_bytes();
    ASSERT_GT(before, 0u) << "/proc/self/statm is not readable";
    ASSERT_TRUE(chain_of_handoffs(kLinks));
    const std::size_t grown = resident_bytes() - before;
    // The chain orders the last link's read of the first link's value, through 2047 hand-offs.
    EXPECT_TRUE(scanlab::sim::take_reports().empty());
    constexpr std::size_t kBytesPerLink = 7 * 1024;
    EXPECT_LE(grown, kLinks * kBytesPerLink) << "grew by " << grown / kLinks << " bytes a link";
}

}  // namespace
