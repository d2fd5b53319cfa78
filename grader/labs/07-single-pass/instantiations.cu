// Instantiates lab 07's entry for every (T, Op) pair the suite uses.
#include SCANLAB_LAB_SOURCE

#include "scan_instantiations.hpp"

#define SCANLAB_INSTANTIATE_LAB07(T, Op) \
    template void single_pass_scan<T, Op>(const T*, T*, std::size_t, unsigned, Op);

SCANLAB_FOR_EACH_SCAN_TYPE(SCANLAB_INSTANTIATE_LAB07)
