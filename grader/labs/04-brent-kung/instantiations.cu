// Instantiates lab 04's entries for every (T, Op) pair the suite uses.
#include SCANLAB_LAB_SOURCE

#include "scan_instantiations.hpp"

#define SCANLAB_INSTANTIATE_LAB04(T, Op)                                                    \
    template void brent_kung_scan<T, Op>(const T*, T*, std::size_t, unsigned, Op);         \
    template void brent_kung_exclusive_scan<T, Op>(const T*, T*, std::size_t, unsigned, Op);

SCANLAB_FOR_EACH_SCAN_TYPE(SCANLAB_INSTANTIATE_LAB04)
