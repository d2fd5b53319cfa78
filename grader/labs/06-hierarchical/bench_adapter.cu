// Lab 06 in reports/bench: the three-kernel hierarchical scan of the whole array, with the
// largest sections and in a sweep of section sizes.
#include SCANLAB_LAB_SOURCE

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    constexpr unsigned kSection = 2048;
    constexpr unsigned kElementsPerThread = 2;  // lab 04's block scan
    SeriesInfo hierarchical;
    hierarchical.id = "06-hierarchical/hierarchical_scan";
    hierarchical.lab = "06-hierarchical";
    hierarchical.label = "06 hierarchical (three kernels)";
    hierarchical.algorithm = "hierarchical";
    hierarchical.section_size = kSection;
    hierarchical.block_size = kSection / kElementsPerThread;
    list.add(hierarchical, [](auto in, auto out, std::size_t n, auto op) { hierarchical_scan(in, out, n, kSection, op); });
    for (const unsigned section : {256u, 512u, 1024u}) {
        list.add(at_block_size(hierarchical, section / kElementsPerThread, section),
                 [section](auto in, auto out, std::size_t n, auto op) { hierarchical_scan(in, out, n, section, op); });
    }
}
