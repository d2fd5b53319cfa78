// Lab 04 in reports/bench: the Brent-Kung inclusive and exclusive section scans (two elements
// per thread) over many sections, at the largest block and in a sweep of block sizes.
#include SCANLAB_LAB_SOURCE

#include "series.hpp"

void scanlab::bench::register_series(SeriesList& list) {
    constexpr unsigned kElementsPerThread = 2;
    constexpr unsigned kSection = 2048;
    SeriesInfo inclusive;
    inclusive.id = "04-brent-kung/brent_kung_scan";
    inclusive.lab = "04-brent-kung";
    inclusive.label = "04 Brent-Kung inclusive";
    inclusive.algorithm = "brent-kung";
    inclusive.scope = "sections";
    inclusive.block_size = kSection / kElementsPerThread;
    inclusive.section_size = kSection;
    SeriesInfo exclusive = inclusive;
    exclusive.id = "04-brent-kung/brent_kung_exclusive_scan";
    exclusive.label = "04 Brent-Kung exclusive";
    exclusive.algorithm = "brent-kung-exclusive";
    exclusive.reference = Reference::exclusive;

    list.add(inclusive, [](auto in, auto out, std::size_t n, auto op) { brent_kung_scan(in, out, n, kSection, op); });
    list.add(exclusive, [](auto in, auto out, std::size_t n, auto op) { brent_kung_exclusive_scan(in, out, n, kSection, op); });
    for (const unsigned section : {64u, 128u, 256u, 512u, 1024u}) {
        const unsigned block = section / kElementsPerThread;
        list.add(at_block_size(inclusive, block, section),
                 [section](auto in, auto out, std::size_t n, auto op) { brent_kung_scan(in, out, n, section, op); });
        list.add(at_block_size(exclusive, block, section), [section](auto in, auto out, std::size_t n, auto op) {
            brent_kung_exclusive_scan(in, out, n, section, op);
        });
    }
}
