// Instantiates lab 02's entries for every (T, Op) pair the suite uses, and runs its block scans
// as later labs call them (kogge_stone_api.hpp).
#include SCANLAB_LAB_SOURCE

#include "scan_instantiations.hpp"
#include "scanlab/cuda_check.hpp"

template <class T, class Op>
__global__ void block_scan_then_read_across_kernel(const T* in, T* out, bool double_buffer, Op op) {
    extern __shared__ __align__(scanlab::kSharedAlignment) unsigned char probe_bytes[];
    T* const front = reinterpret_cast<T*>(probe_bytes);
    front[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    const T* result = front;
    if (double_buffer) {
        result = block_scan_double_buffer(front, front + blockDim.x, threadIdx.x, blockDim.x, op);
    } else {
        block_scan_inplace(front, threadIdx.x, blockDim.x, op);
    }
    out[threadIdx.x] = result[blockDim.x - 1 - threadIdx.x];
}

template <class T, class Op>
void block_scan_then_read_across(const T* d_in, T* d_out, unsigned section_size, bool double_buffer, Op op) {
    const std::size_t buffers = double_buffer ? 2 : 1;
    block_scan_then_read_across_kernel<<<1, section_size, buffers * section_size * sizeof(T)>>>(d_in, d_out,
                                                                                                double_buffer, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

template void block_scan_then_read_across<scanlab::AffineMap<unsigned>, scanlab::ComposeAffine<unsigned>>(
    const scanlab::AffineMap<unsigned>*, scanlab::AffineMap<unsigned>*, unsigned, bool, scanlab::ComposeAffine<unsigned>);

#define SCANLAB_INSTANTIATE_LAB02(T, Op)                                                          \
    template void kogge_stone_inplace_scan<T, Op>(const T*, T*, std::size_t, unsigned, Op);      \
    template void kogge_stone_double_buffer_scan<T, Op>(const T*, T*, std::size_t, unsigned, Op);

SCANLAB_FOR_EACH_SCAN_TYPE(SCANLAB_INSTANTIATE_LAB02)
