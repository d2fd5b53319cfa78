// Lab 02 in reports/bench: both Kogge-Stone section scans over many sections of one block
// each, at the largest block and in a sweep of block sizes.
#include SCANLAB_LAB_SOURCE

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    constexpr unsigned kBlock = 1024;
    const SeriesInfo inplace = lab_series("02-kogge-stone", "kogge_stone_inplace_scan", "02 Kogge-Stone in place",
                                          "kogge-stone", "sections", kBlock, kBlock);
    const SeriesInfo double_buffer = lab_series("02-kogge-stone", "kogge_stone_double_buffer_scan",
                                                "02 Kogge-Stone double-buffered", "kogge-stone-double-buffer",
                                                "sections", kBlock, kBlock);
    for (const unsigned block : {kBlock, 32u, 64u, 128u, 256u, 512u}) {
        const bool sweep = block != kBlock;
        list.add(sweep ? at_block_size(inplace, block, block) : inplace,
                 [block](auto in, auto out, std::size_t n, auto op) { kogge_stone_inplace_scan(in, out, n, block, op); });
        list.add(sweep ? at_block_size(double_buffer, block, block) : double_buffer,
                 [block](auto in, auto out, std::size_t n, auto op) {
                     kogge_stone_double_buffer_scan(in, out, n, block, op);
                 });
    }
}
