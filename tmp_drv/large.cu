#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "scanlab/operators.hpp"
#include "06-hierarchical/hierarchical_scan.cu"
#include "07-single-pass/single_pass_scan.cu"
int main(int argc, char** argv) {
    const std::size_t n = std::strtoull(argv[1], nullptr, 10);
    const bool single = argc > 2 && !std::strcmp(argv[2], "single");
    std::vector<int> h(n);
    for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<int>((i * 2654435761u) % 7) - 3;
    int *in, *out;
    if (cudaMalloc(&in, n * sizeof(int)) || cudaMalloc(&out, n * sizeof(int))) { std::printf("alloc failed\n"); return 2; }
    cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    if (single) single_pass_scan(in, out, n, 2048u, scanlab::Plus<int>{});
    else hierarchical_scan(in, out, n, 2048u, scanlab::Plus<int>{});
    std::vector<int> r(n);
    cudaMemcpy(r.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
    long long running = 0; std::size_t bad = 0, first = n;
    for (std::size_t i = 0; i < n; ++i) { running += h[i]; if (static_cast<int>(running) != r[i]) { if (!bad) first = i; ++bad; } }
    std::printf("%s n=%zu: %zu wrong (first %zu), last %d, %s\n", single ? "single-pass" : "hierarchical", n, bad, first, r[n-1], cudaGetErrorString(cudaGetLastError()));
    return bad != 0;
}
