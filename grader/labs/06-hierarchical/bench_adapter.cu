// Lab 06 in reports/bench: the three-kernel hierarchical scan of the whole array, with the
// largest sections and in a sweep of section sizes.
#include SCANLAB_LAB_SOURCE

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    constexpr unsigned kSection = 2048;
    constexpr unsigned kElementsPerThread = 2;  // lab 04's block scan
    const SeriesInfo hierarchical = lab_series("06-hierarchical", "hierarchical_scan", "06 hierarchical (three kernels)",
                                               "hierarchical", "whole-array", kSection / kElementsPerThread, kSection);
    for (const unsigned section : {kSection, 256u, 512u, 1024u}) {
        list.add(section == kSection ? hierarchical : at_block_size(hierarchical, section / kElementsPerThread, section),
                 [section](auto in, auto out, std::size_t n, auto op) { hierarchical_scan(in, out, n, section, op); });
    }
}
