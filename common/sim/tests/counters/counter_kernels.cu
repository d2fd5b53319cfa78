// Small kernels whose bank conflicts, sectors and divergence are known exactly; see
// counters_test.cpp for the expected numbers and why.
#include <cuda_runtime.h>

#include "counter_kernels.hpp"

namespace {

constexpr unsigned kWarp = 32;

// One shared store and one shared load per lane at word `index(lane)`.
__global__ void shared_pattern(int* out, unsigned stride, unsigned padded_every) {
    __shared__ int words[kWarp * kWarp * 2];
    unsigned index = threadIdx.x * stride;
    if (padded_every != 0) index += index / padded_every;
    words[index] = static_cast<int>(threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = words[index];
}

__global__ void shared_doubles(double* out) {
    __shared__ double values[kWarp];
    values[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = values[threadIdx.x];
}

__global__ void shared_broadcast(int* out) {
    __shared__ int word;
    if (threadIdx.x == 0) word = 7;
    __syncthreads();
    out[threadIdx.x] = word;
}

__global__ void global_stride(const int* in, int* out, unsigned stride) {
    out[threadIdx.x] = in[threadIdx.x * stride];
}

__global__ void odd_lanes_differ(int* out) {
    if (threadIdx.x % 2 != 0) {
        out[threadIdx.x] = 1;
    } else {
        out[threadIdx.x] = 2;
    }
}

__global__ void first_warp_only(int* out) {
    if (threadIdx.x < kWarp) out[threadIdx.x] = 1;
}

// A reduction tree over 2 * blockDim.x elements with the working threads spread out
// (thread t works when t + 1 is a multiple of the stride) or packed at the low end.
__global__ void reduction_tree(int* out, bool packed) {
    __shared__ int values[2048];
    const unsigned size = 2 * blockDim.x;
    values[threadIdx.x] = 1;
    values[threadIdx.x + blockDim.x] = 1;
    __syncthreads();
    for (unsigned stride = 1; stride < size; stride *= 2) {
        const unsigned index = packed ? (threadIdx.x + 1) * 2 * stride - 1
                                      : ((threadIdx.x + 1) % stride == 0 ? 2 * threadIdx.x + 1 : size);
        if (index < size) values[index] += values[index - stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] = values[size - 1];
}

template <class T>
T* device_buffer(std::size_t n) {
    T* p = nullptr;
    cudaMalloc(&p, n * sizeof(T));
    cudaMemset(p, 0, n * sizeof(T));
    return p;
}

}  // namespace

void run_shared_pattern(unsigned stride, unsigned padded_every) {
    int* out = device_buffer<int>(kWarp);
    shared_pattern<<<1, kWarp>>>(out, stride, padded_every);
    cudaDeviceSynchronize();
    cudaFree(out);
}

void run_shared_doubles() {
    double* out = device_buffer<double>(kWarp);
    shared_doubles<<<1, kWarp>>>(out);
    cudaDeviceSynchronize();
    cudaFree(out);
}

void run_shared_broadcast() {
    int* out = device_buffer<int>(kWarp);
    shared_broadcast<<<1, kWarp>>>(out);
    cudaDeviceSynchronize();
    cudaFree(out);
}

void run_global_stride(unsigned stride) {
    int* in = device_buffer<int>(kWarp * stride);
    int* out = device_buffer<int>(kWarp);
    global_stride<<<1, kWarp>>>(in, out, stride);
    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
}

void run_odd_lanes_differ() {
    int* out = device_buffer<int>(kWarp);
    odd_lanes_differ<<<1, kWarp>>>(out);
    cudaDeviceSynchronize();
    cudaFree(out);
}

void run_first_warp_only() {
    int* out = device_buffer<int>(2 * kWarp);
    first_warp_only<<<1, 2 * kWarp>>>(out);
    cudaDeviceSynchronize();
    cudaFree(out);
}

void run_reduction_tree(unsigned threads, bool packed) {
    int* out = device_buffer<int>(1);
    reduction_tree<<<1, threads>>>(out, packed);
    cudaDeviceSynchronize();
    cudaFree(out);
}
