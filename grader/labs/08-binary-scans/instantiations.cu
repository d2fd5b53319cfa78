// Lab 08's device functions, run by probe kernels compiled together with the lab source, so
// that the tests (plain C++) can call them from the host.
#include SCANLAB_LAB_SOURCE

#include <vector>

#include "binary_scans_api.hpp"
#include "scanlab/cuda_check.hpp"
#include "scanlab/lane_masks.hpp"

namespace lab08 {
namespace {

__global__ void probe_kernel(Probe probe, const std::uint8_t* predicates, const std::uint8_t* heads, unsigned* out) {
    __shared__ unsigned warp_totals[32];
    const bool p = predicates[threadIdx.x] != 0;
    unsigned result = 0;
    switch (probe) {
        case Probe::count: result = warp_binary_count(p); break;
        case Probe::exclusive: result = warp_binary_exclusive_sum(p); break;
        case Probe::inclusive: result = warp_binary_inclusive_sum(p); break;
        case Probe::reverse_exclusive: result = warp_binary_reverse_exclusive_sum(p); break;
        case Probe::reverse_inclusive: result = warp_binary_reverse_inclusive_sum(p); break;
        case Probe::segmented_exclusive: result = warp_segmented_binary_exclusive_sum(p, heads[threadIdx.x] != 0); break;
        case Probe::block_count: result = block_binary_count(p); break;
        case Probe::block_exclusive: result = block_binary_exclusive_sum(p, warp_totals); break;
        case Probe::block_exclusive_twice:
            result = block_binary_exclusive_sum(p, warp_totals);
            result += block_binary_exclusive_sum(!p, warp_totals);
            break;
    }
    out[threadIdx.x] = result;
}

__global__ void lane_mask_kernel(unsigned* out) {
    const unsigned lane = threadIdx.x % 32;
    unsigned* mine = out + 8 * threadIdx.x;
    mine[0] = lane_mask_lt(lane);
    mine[1] = lane_mask_le(lane);
    mine[2] = lane_mask_gt(lane);
    mine[3] = lane_mask_ge(lane);
    mine[4] = scanlab::lanemask_lt();
    mine[5] = scanlab::lanemask_le();
    mine[6] = scanlab::lanemask_gt();
    mine[7] = scanlab::lanemask_ge();
}

__global__ void warp_sum_kernel(const unsigned* values, unsigned* out) {
    out[threadIdx.x] = warp_inclusive_sum(values[threadIdx.x], present_lanes());
}

template <class T>
T* to_device(const std::vector<T>& host) {
    T* device = nullptr;
    SCANLAB_CUDA_CHECK(cudaMalloc(&device, (host.empty() ? 1 : host.size()) * sizeof(T)));
    if (!host.empty()) SCANLAB_CUDA_CHECK(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    return device;
}

std::vector<unsigned> from_device(const unsigned* device, std::size_t n) {
    std::vector<unsigned> host(n);
    SCANLAB_CUDA_CHECK(cudaMemcpy(host.data(), device, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    return host;
}

}  // namespace

std::vector<unsigned> run_probe(Probe probe, const std::vector<std::uint8_t>& predicates,
                                const std::vector<std::uint8_t>& heads) {
    const auto threads = static_cast<unsigned>(predicates.size());
    std::uint8_t* d_predicates = to_device(predicates);
    std::uint8_t* d_heads = to_device(heads.empty() ? std::vector<std::uint8_t>(threads, 0) : heads);
    unsigned* d_out = to_device(std::vector<unsigned>(threads, 0xa5a5a5a5u));
    probe_kernel<<<1, threads>>>(probe, d_predicates, d_heads, d_out);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned> out = from_device(d_out, threads);
    cudaFree(d_predicates);
    cudaFree(d_heads);
    cudaFree(d_out);
    return out;
}

std::vector<unsigned> run_lane_mask_probe(unsigned threads) {
    unsigned* d_out = to_device(std::vector<unsigned>(8 * threads, 0));
    lane_mask_kernel<<<1, threads>>>(d_out);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned> out = from_device(d_out, 8 * threads);
    cudaFree(d_out);
    return out;
}

std::vector<unsigned> run_warp_sum_probe(const std::vector<unsigned>& values) {
    const auto threads = static_cast<unsigned>(values.size());
    unsigned* d_values = to_device(values);
    unsigned* d_out = to_device(std::vector<unsigned>(threads, 0));
    warp_sum_kernel<<<1, threads>>>(d_values, d_out);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned> out = from_device(d_out, threads);
    cudaFree(d_values);
    cudaFree(d_out);
    return out;
}

}  // namespace lab08
