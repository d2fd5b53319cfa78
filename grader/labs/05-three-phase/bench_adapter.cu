// Lab 05 in reports/bench: the coarsened three-phase section scan, eight elements per thread,
// at the largest block and in a sweep of block sizes.
#include SCANLAB_LAB_SOURCE

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    constexpr unsigned kElementsPerThread = 8;
    constexpr unsigned kBlock = 1024;
    SeriesInfo three_phase;
    three_phase.id = "05-three-phase/three_phase_scan";
    three_phase.lab = "05-three-phase";
    three_phase.label = "05 three-phase (8 per thread)";
    three_phase.algorithm = "three-phase";
    three_phase.scope = "sections";
    three_phase.block_size = kBlock;
    three_phase.section_size = kBlock * kElementsPerThread;
    list.add(three_phase, [](auto in, auto out, std::size_t n, auto op) {
        three_phase_scan(in, out, n, kBlock, kElementsPerThread, op);
    });
    for (const unsigned block : {64u, 128u, 256u, 512u}) {
        list.add(at_block_size(three_phase, block, block * kElementsPerThread),
                 [block](auto in, auto out, std::size_t n, auto op) { three_phase_scan(in, out, n, block, kElementsPerThread, op); });
    }
}
