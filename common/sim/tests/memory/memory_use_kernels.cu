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

// Thread 0 of each block takes the next link (a ticket, in the order blocks start), acquires
// the value of the link before (flag, fence, value) and releases its own (value, fence, flag):
// each flag carries what every link before it published. The last link also reads the first
// link's value, which only the whole chain orders.
__global__ void chain_link(unsigned* ticket, int* value, int* flag, int* first_value, unsigned links) {
    if (threadIdx.x != 0) return;
    const unsigned link = atomicAdd(ticket, 1u);
    int before = 0;
    if (link > 0) {
        const volatile int* ready = flag;
        while (ready[link - 1] == 0) {
        }
        __threadfence();
        before = value[link - 1];
    }
    value[link] = before + 1;
    __threadfence();
    atomicExch(&flag[link], 1);
    if (link == links - 1) *first_value = value[0];
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

bool chain_of_handoffs(unsigned links) {
    unsigned* ticket = nullptr;
    int *value = nullptr, *flag = nullptr, *first_value = nullptr;
    cudaMalloc(&ticket, sizeof(unsigned));
    cudaMalloc(&value, links * sizeof(int));
    cudaMalloc(&flag, links * sizeof(int));
    cudaMalloc(&first_value, sizeof(int));
    cudaMemset(ticket, 0, sizeof(unsigned));
    cudaMemset(flag, 0, links * sizeof(int));
    chain_link<<<links, 32>>>(ticket, value, flag, first_value, links);
    const bool ran = cudaDeviceSynchronize() == cudaSuccess;
    int last = 0, first = 0;
    cudaMemcpy(&last, value + links - 1, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&first, first_value, sizeof(int), cudaMemcpyDeviceToHost);
    for (void* p : {static_cast<void*>(ticket), static_cast<void*>(value), static_cast<void*>(flag), static_cast<void*>(first_value)}) cudaFree(p);
    return ran && last == static_cast<int>(links) && first == 1;
}
