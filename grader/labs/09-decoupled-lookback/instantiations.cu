// Instantiates lab 09's entry for every (T, Op) pair the suite uses, with each policy of the
// suite (suite_policies.hpp), and the entry with the tuned policy.
#include SCANLAB_LAB_SOURCE

#include "scan_instantiations.hpp"
#include "suite_policies.hpp"

#define SCANLAB_INSTANTIATE_LAB09_WITH(Policy, T, Op) \
    template void decoupled_lookback_scan<Policy, T, Op>(void*, std::size_t&, const T*, T*, std::size_t, Op);

#define SCANLAB_INSTANTIATE_LAB09(T, Op)                          \
    SCANLAB_INSTANTIATE_LAB09_WITH(lab09::SmallPolicy, T, Op)     \
    SCANLAB_INSTANTIATE_LAB09_WITH(lab09::MediumPolicy, T, Op)    \
    SCANLAB_INSTANTIATE_LAB09_WITH(lab09::LargePolicy, T, Op)     \
    template void decoupled_lookback_scan<T, Op>(void*, std::size_t&, const T*, T*, std::size_t, Op);

SCANLAB_FOR_EACH_SCAN_TYPE(SCANLAB_INSTANTIATE_LAB09)

// The back-off policy is the forward-progress tests' alone, which scan int with Plus only: one
// instantiation, not one per pair (each costs the compile of every submission's lab file).
SCANLAB_INSTANTIATE_LAB09_WITH(lab09::BackoffPolicy, int, ::scanlab::Plus<int>)
