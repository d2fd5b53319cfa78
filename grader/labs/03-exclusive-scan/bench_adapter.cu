// Lab 03 in reports/bench: the exclusive Kogge-Stone section scan over many sections of one
// block each, at the largest block and in a sweep of block sizes.
#include SCANLAB_LAB_SOURCE

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    constexpr unsigned kBlock = 1024;
    const SeriesInfo exclusive = lab_series("03-exclusive-scan", "kogge_stone_exclusive_scan", "03 Kogge-Stone exclusive",
                                            "kogge-stone-exclusive", "sections", kBlock, kBlock, Reference::exclusive);
    for (const unsigned block : {kBlock, 32u, 64u, 128u, 256u, 512u}) {
        list.add(block == kBlock ? exclusive : at_block_size(exclusive, block, block),
                 [block](auto in, auto out, std::size_t n, auto op) { kogge_stone_exclusive_scan(in, out, n, block, op); });
    }
}
