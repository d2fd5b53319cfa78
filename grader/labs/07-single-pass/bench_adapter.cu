// Lab 07 in reports/bench: the single-pass scan of the whole array, with the largest tiles and
// in a sweep of tile sizes (a tile waits for the one before it: fewer, larger tiles make the
// chain of hand-offs shorter).
#include SCANLAB_LAB_SOURCE

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    constexpr unsigned kTile = 8192;
    const SeriesInfo single_pass = lab_series("07-single-pass", "single_pass_scan",
                                              "07 single-pass (adjacent synchronization)", "single-pass", "whole-array",
                                              kTile / SinglePassPolicy::kItemsPerThread, kTile);
    for (const unsigned tile : {kTile, 1024u, 2048u, 4096u}) {
        list.add(tile == kTile ? single_pass : at_block_size(single_pass, tile / SinglePassPolicy::kItemsPerThread, tile),
                 [tile](auto in, auto out, std::size_t n, auto op) { single_pass_scan(in, out, n, tile, op); });
    }
}
