// Lab 07 in reports/bench: the single-pass scan of the whole array, with the largest tiles and
// in a sweep of tile sizes (a tile waits for the one before it: fewer, larger tiles make the
// chain of hand-offs shorter).
#include SCANLAB_LAB_SOURCE

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    constexpr unsigned kTile = 2048;
    constexpr unsigned kElementsPerThread = 2;  // lab 04's block scan
    SeriesInfo single_pass;
    single_pass.id = "07-single-pass/single_pass_scan";
    single_pass.lab = "07-single-pass";
    single_pass.label = "07 single-pass (adjacent synchronization)";
    single_pass.algorithm = "single-pass";
    single_pass.section_size = kTile;
    single_pass.block_size = kTile / kElementsPerThread;
    list.add(single_pass, [](auto in, auto out, std::size_t n, auto op) { single_pass_scan(in, out, n, kTile, op); });
    for (const unsigned tile : {256u, 512u, 1024u}) {
        list.add(at_block_size(single_pass, tile / kElementsPerThread, tile),
                 [tile](auto in, auto out, std::size_t n, auto op) { single_pass_scan(in, out, n, tile, op); });
    }
}
