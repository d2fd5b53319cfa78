// Lab 06's reference solution as scanlab_reference::hierarchical_scan, for the performance check
// (performance_test.cpp); built on the cuda backend only (grader/cmake/LabTests.cmake).
#include "reference_solution.hpp"

namespace scanlab_reference {
#include SCANLAB_REFERENCE_SOURCE

template void hierarchical_scan<int, scanlab::Plus<int>>(const int*, int*, std::size_t, unsigned, scanlab::Plus<int>);
}  // namespace scanlab_reference
