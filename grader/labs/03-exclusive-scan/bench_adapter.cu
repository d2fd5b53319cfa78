// Lab 03 in reports/bench: the exclusive Kogge-Stone section scan over many sections of one
// block each, at the largest block and in a sweep of block sizes.
#include SCANLAB_LAB_SOURCE

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    constexpr unsigned kBlock = 1024;
    SeriesInfo exclusive;
    exclusive.id = "03-exclusive-scan/kogge_stone_exclusive_scan";
    exclusive.lab = "03-exclusive-scan";
    exclusive.label = "03 Kogge-Stone exclusive";
    exclusive.algorithm = "kogge-stone-exclusive";
    exclusive.scope = "sections";
    exclusive.block_size = kBlock;
    exclusive.section_size = kBlock;
    exclusive.reference = Reference::exclusive;
    list.add(exclusive, [](auto in, auto out, std::size_t n, auto op) { kogge_stone_exclusive_scan(in, out, n, kBlock, op); });
    for (const unsigned block : {32u, 64u, 128u, 256u, 512u}) {
        list.add(at_block_size(exclusive, block, block), [block](auto in, auto out, std::size_t n, auto op) {
            kogge_stone_exclusive_scan(in, out, n, block, op);
        });
    }
}
