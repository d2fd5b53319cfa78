// Lab 10's reference solution as scanlab_reference::warp_specialized_scan, for the performance
// check (performance_test.cpp); built on the cuda backend only (grader/cmake/LabTests.cmake).
#include "reference_solution.hpp"

namespace scanlab_reference {
#include SCANLAB_REFERENCE_SOURCE

template void warp_specialized_scan<int, scanlab::Plus<int>>(void*, std::size_t&, const int*, int*, std::size_t,
                                                             scanlab::Plus<int>);
}  // namespace scanlab_reference
