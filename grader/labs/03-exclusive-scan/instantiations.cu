// Instantiates lab 03's entries for every (T, Op) pair the suite uses, and the conversion
// kernels launched on a grid the suite chooses (exclusive_scan_api.hpp).
#include SCANLAB_LAB_SOURCE

#include "scan_instantiations.hpp"
#include "scanlab/cuda_check.hpp"

template <class T, class Op>
void inclusive_to_exclusive_on_grid(const T* d_inclusive, T* d_exclusive, std::size_t n, Op op, unsigned blocks,
                                    unsigned threads) {
    inclusive_to_exclusive_kernel<<<blocks, threads>>>(d_inclusive, d_exclusive, n, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

template <class T, class Op>
void exclusive_to_inclusive_on_grid(const T* d_in, const T* d_exclusive, T* d_inclusive, std::size_t n, Op op,
                                    unsigned blocks, unsigned threads) {
    exclusive_to_inclusive_kernel<<<blocks, threads>>>(d_in, d_exclusive, d_inclusive, n, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

#define SCANLAB_INSTANTIATE_LAB03(T, Op)                                                          \
    template void kogge_stone_exclusive_scan<T, Op>(const T*, T*, std::size_t, unsigned, Op);    \
    template void inclusive_to_exclusive<T, Op>(const T*, T*, std::size_t, Op);                   \
    template void exclusive_to_inclusive<T, Op>(const T*, const T*, T*, std::size_t, Op);                   \
    template void inclusive_to_exclusive_on_grid<T, Op>(const T*, T*, std::size_t, Op, unsigned, unsigned);  \
    template void exclusive_to_inclusive_on_grid<T, Op>(const T*, const T*, T*, std::size_t, Op, unsigned, unsigned);

SCANLAB_FOR_EACH_SCAN_TYPE(SCANLAB_INSTANTIATE_LAB03)
