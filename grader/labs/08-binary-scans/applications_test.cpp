#include <algorithm>
#include <random>

#include "predicate_patterns.hpp"
#include "scanlab/cuda_check.hpp"

namespace {

using namespace lab08;

std::vector<unsigned> application_sizes() { return {1, 31, 32, 33, 500, 1024}; }

std::vector<unsigned> random_keys(unsigned n, unsigned seed) {
    std::mt19937 random(seed);
    std::vector<unsigned> keys(n);
    for (auto& k : keys) k = random() % 4 == 0 ? random() % 16 : random();  // repeated small keys test stability
    return keys;
}

template <class T>
struct DeviceArray {
    explicit DeviceArray(const std::vector<T>& host) : n(host.size()) {
        SCANLAB_CUDA_CHECK(cudaMalloc(&data, n * sizeof(T)));
        SCANLAB_CUDA_CHECK(cudaMemcpy(data, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    }
    ~DeviceArray() { cudaFree(data); }
    std::vector<T> read() const {
        std::vector<T> host(n);
        SCANLAB_CUDA_CHECK(cudaMemcpy(host.data(), data, n * sizeof(T), cudaMemcpyDeviceToHost));
        return host;
    }
    T* data = nullptr;
    std::size_t n;
};

template <class T>
::testing::AssertionResult same_elements(const std::vector<T>& expected, const std::vector<T>& actual) {
    for (std::size_t i = 0; i < expected.size(); ++i) {
        if (expected[i] != actual[i]) {
            return ::testing::AssertionFailure() << "element " << i << ": expected " << expected[i] << ", got " << actual[i];
        }
    }
    return ::testing::AssertionSuccess();
}

void finish() { SCANLAB_CUDA_CHECK(cudaDeviceSynchronize()); }

TEST(Lab08Applications, Split) {
    for (const unsigned n : application_sizes()) {
        for (const unsigned bit : {0u, 3u, 31u}) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", bit " + std::to_string(bit));
            const std::vector<unsigned> keys = random_keys(n, n + bit);
            std::vector<unsigned> expected = keys;
            std::stable_partition(expected.begin(), expected.end(), [bit](unsigned k) { return ((k >> bit) & 1u) == 0; });
            DeviceArray<unsigned> in(keys), out(std::vector<unsigned>(n, 0));
            split_block(in.data, out.data, n, bit);
            finish();
            EXPECT_TRUE(same_elements(expected, out.read()));
        }
    }
}

TEST(Lab08Applications, RadixSort) {
    for (const unsigned n : application_sizes()) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const std::vector<unsigned> keys = random_keys(n, 1000 + n);
        std::vector<unsigned> expected = keys;
        std::stable_sort(expected.begin(), expected.end());
        DeviceArray<unsigned> in(keys), out(std::vector<unsigned>(n, 0));
        radix_sort_block(in.data, out.data, n);
        finish();
        EXPECT_TRUE(same_elements(expected, out.read()));
    }
}

TEST(Lab08Applications, Compaction) {
    for (const unsigned n : application_sizes()) {
        SCOPED_TRACE("n = " + std::to_string(n));
        std::mt19937 random(n);
        std::vector<int> values(n);
        for (auto& v : values) v = random() % 3 == 0 ? 0 : static_cast<int>(random() % 1000) - 500;
        std::vector<int> expected;
        std::copy_if(values.begin(), values.end(), std::back_inserter(expected), [](int v) { return v != 0; });
        DeviceArray<int> in(values), out(std::vector<int>(n, 0));
        DeviceArray<unsigned> count(std::vector<unsigned>(1, 0xa5a5a5a5u));
        compact_block(in.data, out.data, count.data, n);
        finish();
        const unsigned kept_count = count.read()[0];
        ASSERT_TRUE(::testing::AssertionResult(kept_count == expected.size())
                    << "the compaction says it kept " << kept_count << " elements of " << n << ", where "
                    << expected.size() << " are nonzero");
        std::vector<int> kept = out.read();
        kept.resize(expected.size());
        EXPECT_TRUE(same_elements(expected, kept));
    }
}

}  // namespace
