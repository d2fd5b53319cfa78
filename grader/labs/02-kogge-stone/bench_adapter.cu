// Lab 02 in reports/bench: both Kogge-Stone section scans over many sections of one block
// each, at the largest block and in a sweep of block sizes.
#include SCANLAB_LAB_SOURCE

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    constexpr unsigned kBlock = 1024;
    SeriesInfo inplace;
    inplace.id = "02-kogge-stone/kogge_stone_inplace_scan";
    inplace.lab = "02-kogge-stone";
    inplace.label = "02 Kogge-Stone in place";
    inplace.algorithm = "kogge-stone";
    inplace.scope = "sections";
    inplace.block_size = kBlock;
    inplace.section_size = kBlock;
    SeriesInfo double_buffer = inplace;
    double_buffer.id = "02-kogge-stone/kogge_stone_double_buffer_scan";
    double_buffer.label = "02 Kogge-Stone double-buffered";
    double_buffer.algorithm = "kogge-stone-double-buffer";

    list.add(inplace, [](auto in, auto out, std::size_t n, auto op) { kogge_stone_inplace_scan(in, out, n, kBlock, op); });
    list.add(double_buffer, [](auto in, auto out, std::size_t n, auto op) {
        kogge_stone_double_buffer_scan(in, out, n, kBlock, op);
    });
    for (const unsigned block : {32u, 64u, 128u, 256u, 512u}) {
        list.add(at_block_size(inplace, block, block),
                 [block](auto in, auto out, std::size_t n, auto op) { kogge_stone_inplace_scan(in, out, n, block, op); });
        list.add(at_block_size(double_buffer, block, block), [block](auto in, auto out, std::size_t n, auto op) {
            kogge_stone_double_buffer_scan(in, out, n, block, op);
        });
    }
}
