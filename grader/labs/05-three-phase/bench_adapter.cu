// Lab 05 in reports/bench: the coarsened three-phase section scan, eight elements per thread,
// at the largest block and in a sweep of block sizes.
#include SCANLAB_LAB_SOURCE

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    constexpr unsigned kElementsPerThread = 8;
    constexpr unsigned kBlock = 1024;
    const SeriesInfo three_phase = lab_series("05-three-phase", "three_phase_scan", "05 three-phase (8 per thread)",
                                              "three-phase", "sections", kBlock, kBlock * kElementsPerThread);
    for (const unsigned block : {kBlock, 64u, 128u, 256u, 512u}) {
        list.add(block == kBlock ? three_phase : at_block_size(three_phase, block, block * kElementsPerThread),
                 [block](auto in, auto out, std::size_t n, auto op) { three_phase_scan(in, out, n, block, kElementsPerThread, op); });
    }
}
