// Instantiates lab 01's entries for every (T, Op) pair the suite uses.
#include SCANLAB_LAB_SOURCE

#include "scan_instantiations.hpp"

#define SCANLAB_INSTANTIATE_LAB01(T, Op)                                                       \
    template void sequential_inclusive_scan<T, Op>(const T*, T*, std::size_t, Op);            \
    template void sequential_exclusive_scan<T, Op>(const T*, T*, std::size_t, Op);            \
    template void parallel_cpu_inclusive_scan<T, Op>(const T*, T*, std::size_t, Op, unsigned);

SCANLAB_FOR_EACH_SCAN_TYPE(SCANLAB_INSTANTIATE_LAB01)
