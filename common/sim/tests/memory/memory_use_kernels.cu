#include "memory_use_kernels.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

namespace {

// Every byte 0x01: no host copy of the buffer, which would count as the simulator's growth.
constexpr int kFill = 0x01010101;

__global__ void increment(int* data, std::size_t n) {
    const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
    if (i < n) data[i] = data[i] + 1;
}

}  // namespace

int* filled_words(std::size_t words) {
    int* data = nullptr;
    if (cudaMalloc(&data, words * sizeof(int)) != cudaSuccess) return nullptr;
    cudaMemset(data, 0x01, words * sizeof(int));
    return data;
}

bool increment_each_word(int* data, std::size_t words) {
    constexpr unsigned kThreads = 1024;
    increment<<<static_cast<unsigned>((words + kThreads - 1) / kThreads), kThreads>>>(data, words);
    if (cudaDeviceSynchronize() != cudaSuccess) return false;
    std::vector<int> chunk(4096);
    for (std::size_t begin = 0; begin < words; begin += chunk.size()) {
        const std::size_t count = std::min(chunk.size(), words - begin);
        cudaMemcpy(chunk.data(), data + begin, count * sizeof(int), cudaMemcpyDeviceToHost);
        for (std::size_t i = 0; i < count; ++i)
            if (chunk[i] != kFill + 1) return false;
    }
    return true;
}

void free_words(int* data) { cudaFree(data); }
