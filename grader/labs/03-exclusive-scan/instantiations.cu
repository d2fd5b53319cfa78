// Instantiates lab 03's entries for every (T, Op) pair the suite uses.
#include SCANLAB_LAB_SOURCE

#include "scan_instantiations.hpp"

#define SCANLAB_INSTANTIATE_LAB03(T, Op)                                                          \
    template void kogge_stone_exclusive_scan<T, Op>(const T*, T*, std::size_t, unsigned, Op);    \
    template void inclusive_to_exclusive<T, Op>(const T*, T*, std::size_t, Op);                   \
    template void exclusive_to_inclusive<T, Op>(const T*, const T*, T*, std::size_t, Op);

SCANLAB_FOR_EACH_SCAN_TYPE(SCANLAB_INSTANTIATE_LAB03)
