// The simulator's counters (scanlab/sim/counters.hpp) on kernels whose numbers follow from
// the definitions in common/sim/README.md, worked out by hand below.
#include <gtest/gtest.h>

#include <scanlab/sim/counters.hpp>

#include "counter_kernels.hpp"

namespace {

using scanlab::sim::Counters;

template <class Run>
Counters count(Run run) {
    scanlab::sim::set_counting(true);
    scanlab::sim::take_counters();
    run();
    Counters c = scanlab::sim::take_counters();
    scanlab::sim::set_counting(false);
    return c;
}

// 32 lanes, word lane*stride: the banks hit are lane*stride mod 32, each gcd(stride, 32) times.
TEST(SimCounters, SharedStrideOneIsConflictFree) {
    const Counters c = count([] { run_shared_pattern(1, 0); });
    EXPECT_EQ(c.shared_stores.requests, 1u);
    EXPECT_EQ(c.shared_loads.requests, 1u);
    EXPECT_EQ(c.shared_loads.transactions, 1u);
    EXPECT_EQ(c.bank_conflicts(), 0u);
}

TEST(SimCounters, SharedStrideTwoIsTwoWay) {
    const Counters c = count([] { run_shared_pattern(2, 0); });
    EXPECT_EQ(c.shared_loads.transactions, 2u);
    EXPECT_EQ(c.shared_stores.excess(), 1u);
    EXPECT_EQ(c.bank_conflicts(), 2u);
}

TEST(SimCounters, SharedStrideThirtyTwoIsThirtyTwoWay) {
    const Counters c = count([] { run_shared_pattern(32, 0); });
    EXPECT_EQ(c.shared_loads.transactions, 32u);
    EXPECT_EQ(c.shared_loads.excess(), 31u);
}

// Word 32*lane + lane: bank lane, all different.
TEST(SimCounters, PaddingRemovesTheConflicts) {
    const Counters c = count([] { run_shared_pattern(32, 32); });
    EXPECT_EQ(c.bank_conflicts(), 0u);
}

// 32 doubles are 256 bytes, two passes of 128: ideal, not a conflict.
TEST(SimCounters, EightByteElementsTakeTwoPassesWithoutConflict) {
    const Counters c = count(run_shared_doubles);
    EXPECT_EQ(c.shared_loads.transactions, 2u);
    EXPECT_EQ(c.shared_loads.ideal, 2u);
    EXPECT_EQ(c.bank_conflicts(), 0u);
}

TEST(SimCounters, OneWordForAllLanesIsABroadcast) {
    const Counters c = count(run_shared_broadcast);
    EXPECT_EQ(c.shared_loads.requests, 1u);
    EXPECT_EQ(c.shared_loads.transactions, 1u);
}

// 32 consecutive ints: 128 bytes, 4 sectors; stride 2 spreads them over 256 bytes, 8 sectors.
TEST(SimCounters, CoalescedLoadTouchesFourSectors) {
    const Counters c = count([] { run_global_stride(1); });
    EXPECT_EQ(c.global_loads.requests, 1u);
    EXPECT_EQ(c.global_loads.transactions, 4u);
    EXPECT_EQ(c.global_loads.ideal, 4u);
}

TEST(SimCounters, StrideTwoLoadTouchesTwiceTheSectors) {
    const Counters c = count([] { run_global_stride(2); });
    EXPECT_EQ(c.global_loads.transactions, 8u);
    EXPECT_EQ(c.global_loads.ideal, 4u);
}

TEST(SimCounters, StrideEightLoadTouchesASectorPerLane) {
    const Counters c = count([] { run_global_stride(8); });
    EXPECT_EQ(c.global_loads.transactions, 32u);
}

TEST(SimCounters, OddAndEvenLanesDiverge) {
    const Counters c = count(run_odd_lanes_differ);
    EXPECT_EQ(c.warp_intervals, 1u);
    EXPECT_EQ(c.divergent_warp_intervals, 1u);
    EXPECT_EQ(c.extra_paths, 1u);
}

// The test splits the block at a warp boundary: each warp takes one side as a whole.
TEST(SimCounters, WholeWarpsOnEachSideDoNotDiverge) {
    const Counters c = count(run_first_warp_only);
    EXPECT_EQ(c.warp_intervals, 2u);
    EXPECT_EQ(c.divergent_warp_intervals, 0u);
}

// 1024 threads (32 warps), 2048 elements, strides 1 .. 1024 (11 steps, 13 intervals: the
// load, one per step, the final store).
// Packed: 2048 / (2 * stride) working threads, i.e. 1024, 512, ..., 1; a warp is split only
// where that count is not a multiple of 32, in the one warp holding the boundary: strides
// 64 .. 1024, 5 intervals. The final store (thread 0 only) splits warp 0 once more: 6.
// Spread: thread t works when (t + 1) is a multiple of the stride. Stride 1: everyone, no
// split. Strides 2 .. 32: every warp split (5 * 32 = 160). Stride 64 .. 1024: one working
// thread in every (stride / 32)-th warp: 16 + 8 + 4 + 2 + 1 = 31. Plus the store: 192.
TEST(SimCounters, PackedReductionTreeDivergesOnlyBelowAWarp) {
    const Counters c = count([] { run_reduction_tree(1024, true); });
    EXPECT_EQ(c.warp_intervals, 13u * 32u);
    EXPECT_EQ(c.divergent_warp_intervals, 6u);
}

TEST(SimCounters, SpreadReductionTreeDivergesEverywhere) {
    const Counters c = count([] { run_reduction_tree(1024, false); });
    EXPECT_EQ(c.divergent_warp_intervals, 192u);
}

TEST(SimCounters, NothingIsCountedWhenCountingIsOff) {
    scanlab::sim::take_counters();
    run_shared_pattern(32, 0);
    const Counters c = scanlab::sim::take_counters();
    EXPECT_EQ(c.shared_loads.requests, 0u);
    EXPECT_EQ(c.warp_intervals, 0u);
}

}  // namespace
