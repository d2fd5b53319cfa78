// Lab 04 in reports/bench: the Brent-Kung inclusive and exclusive section scans (two elements
// per thread) over many sections, at the largest section and in a sweep of section sizes.
#include SCANLAB_LAB_SOURCE

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    constexpr unsigned kElementsPerThread = 2;
    constexpr unsigned kSection = 2048;
    const SeriesInfo inclusive = lab_series("04-brent-kung", "brent_kung_scan", "04 Brent-Kung inclusive", "brent-kung",
                                            "sections", kSection / kElementsPerThread, kSection);
    const SeriesInfo exclusive = lab_series("04-brent-kung", "brent_kung_exclusive_scan", "04 Brent-Kung exclusive",
                                            "brent-kung-exclusive", "sections", kSection / kElementsPerThread, kSection,
                                            Reference::exclusive);
    for (const unsigned section : {kSection, 64u, 128u, 256u, 512u, 1024u}) {
        const unsigned block = section / kElementsPerThread;
        const bool sweep = section != kSection;
        list.add(sweep ? at_block_size(inclusive, block, section) : inclusive,
                 [section](auto in, auto out, std::size_t n, auto op) { brent_kung_scan(in, out, n, section, op); });
        list.add(sweep ? at_block_size(exclusive, block, section) : exclusive,
                 [section](auto in, auto out, std::size_t n, auto op) {
                     brent_kung_exclusive_scan(in, out, n, section, op);
                 });
    }
}
