// Lab 03 reference solution: exclusive scan, natively and by conversion.
//
// kogge_stone_exclusive_scan shifts each section right by one element as it loads it (the
// first position gets the identity) and then runs the ordinary Kogge-Stone inclusive scan:
// same steps, same S*log2(S) - (S-1) applications per section. The two conversions are
// element-wise maps over the whole array: shifting costs no application of the operator,
// going back costs one per element (the exclusive prefix combined with the element itself).

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "scanlab/cuda_check.hpp"
#include "scanlab/section_size.hpp"

// ---------------------------------------------------------------------------------------
// Block level: double-buffered Kogge-Stone scan of one section, one element per thread.
// Reads and writes of a step go to different buffers, so one barrier per step suffices.
// Returns the buffer that holds the result.
template <class T, class Op>
__device__ T* block_scan_double_buffer(T* front, T* back, unsigned tid, unsigned section_size, Op op) {
    for (unsigned stride = 1; stride < section_size; stride *= 2) {
        back[tid] = tid >= stride ? op(front[tid - stride], front[tid]) : front[tid];
        T* const written = back;
        back = front;
        front = written;
        __syncthreads();  // this step's writes precede the next step's reads
    }
    return front;
}

// ---------------------------------------------------------------------------------------
// Kernels.

constexpr std::size_t kSharedAlignment = 16;  // covers every element type the kit scans
constexpr unsigned kConvertBlockSize = 256;   // element-wise maps: any multiple of a warp
constexpr unsigned kMaxConvertBlocks = 65535; // grid-stride loops cover any n beyond this

// One block per section, blockDim.x == section size. Position k of the section holds the
// input element just before it, position 0 the identity: the inclusive scan of that
// shifted section is the exclusive scan of the original. Positions past n get the identity.
template <class T, class Op>
__global__ void kogge_stone_exclusive_kernel(const T* in, T* out, std::size_t n, Op op) {
    extern __shared__ __align__(kSharedAlignment) unsigned char shared_bytes[];
    T* const front = reinterpret_cast<T*>(shared_bytes);
    T* const back = front + blockDim.x;

    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const bool has_predecessor = threadIdx.x > 0 && i - 1 < n;
    front[threadIdx.x] = has_predecessor ? in[i - 1] : op.identity();
    __syncthreads();  // the whole section is loaded before any thread reads a neighbour

    const T* const result = block_scan_double_buffer(front, back, threadIdx.x, blockDim.x, op);
    if (i < n) out[i] = result[threadIdx.x];
}

template <class T, class Op>
__global__ void inclusive_to_exclusive_kernel(const T* inclusive, T* exclusive, std::size_t n, Op op) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
        exclusive[i] = i == 0 ? op.identity() : inclusive[i - 1];
    }
}

template <class T, class Op>
__global__ void exclusive_to_inclusive_kernel(const T* in, const T* exclusive, T* inclusive, std::size_t n, Op op) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
        inclusive[i] = op(exclusive[i], in[i]);
    }
}

// ---------------------------------------------------------------------------------------
// Host entries.

inline unsigned convert_grid_size(std::size_t n) {
    return static_cast<unsigned>(std::min<std::size_t>(scanlab::ceil_div(n, kConvertBlockSize), kMaxConvertBlocks));
}

template <class T, class Op>
void kogge_stone_exclusive_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op) {
    if (!scanlab::is_valid_section_size(section_size)) {
        throw std::invalid_argument("section_size must be a power of two in [32, 1024]");
    }
    if (n == 0) return;  // a launch with no blocks is an invalid configuration
    constexpr std::size_t kBuffers = 2;
    const std::size_t shared_bytes = kBuffers * section_size * sizeof(T);
    const auto sections = static_cast<unsigned>(scanlab::ceil_div(n, section_size));
    kogge_stone_exclusive_kernel<<<sections, section_size, shared_bytes>>>(d_in, d_out, n, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

// Reads d_inclusive[i - 1] while writing d_exclusive[i]: the two must not overlap.
template <class T, class Op>
void inclusive_to_exclusive(const T* d_inclusive, T* d_exclusive, std::size_t n, Op op) {
    if (n == 0) return;
    inclusive_to_exclusive_kernel<<<convert_grid_size(n), kConvertBlockSize>>>(d_inclusive, d_exclusive, n, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

template <class T, class Op>
void exclusive_to_inclusive(const T* d_in, const T* d_exclusive, T* d_inclusive, std::size_t n, Op op) {
    if (n == 0) return;
    exclusive_to_inclusive_kernel<<<convert_grid_size(n), kConvertBlockSize>>>(d_in, d_exclusive, d_inclusive, n, op);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}
