// Lab 06 in reports/bench: the three-kernel hierarchical scan (reduce then scan) of the whole
// array, with the reference's tile size and in a sweep of tile sizes.
#include SCANLAB_LAB_SOURCE

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    constexpr unsigned kTile = 4096;
    const SeriesInfo hierarchical = lab_series("06-hierarchical", "hierarchical_scan", "06 hierarchical (three kernels)",
                                               "hierarchical", "whole-array", kTile / HierarchicalPolicy::kItemsPerThread, kTile);
    for (const unsigned tile : {kTile, 1024u, 2048u, 8192u}) {
        list.add(tile == kTile ? hierarchical : at_block_size(hierarchical, tile / HierarchicalPolicy::kItemsPerThread, tile),
                 [tile](auto in, auto out, std::size_t n, auto op) { hierarchical_scan(in, out, n, tile, op); });
    }
}
