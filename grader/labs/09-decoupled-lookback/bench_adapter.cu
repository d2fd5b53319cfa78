// Lab 09 in reports/bench: the decoupled look-back scan of the whole array with the tuned
// policy, and for 4-byte values a sweep of block sizes at the same items per thread. The
// temporary storage is the caller's, as CUB's is: allocated once and kept (it grows to the
// largest size asked for), so that no allocation falls inside a timed call.
#include SCANLAB_LAB_SOURCE

#include <type_traits>

#include "series.hpp"

namespace {

// The temporary storage kept across calls of every series of this program.
class KeptStorage {
public:
    ~KeptStorage() { cudaFree(storage_); }
    void* at_least(std::size_t bytes) {
        if (bytes > bytes_) {
            SCANLAB_CUDA_CHECK(cudaFree(storage_));
            storage_ = nullptr;
            SCANLAB_CUDA_CHECK(cudaMalloc(&storage_, bytes));
            bytes_ = bytes;
        }
        return storage_;
    }

private:
    void* storage_ = nullptr;
    std::size_t bytes_ = 0;
};

KeptStorage kept_storage;

template <class Policy, class T, class Op>
void scan_with_kept_storage(const T* in, T* out, std::size_t n, Op op) {
    std::size_t bytes = 0;
    decoupled_lookback_scan<Policy>(nullptr, bytes, in, out, n, op);
    decoupled_lookback_scan<Policy>(kept_storage.at_least(bytes), bytes, in, out, n, op);
}

template <unsigned Threads>
using SweepPolicy = ScanPolicy<Threads, TunedPolicy<int>::kItemsPerThread, TunedPolicy<int>::kBackoffNs>;

}  // namespace

void scanlab::bench::register_series(SeriesList& list) {
    using Tuned = TunedPolicy<int>;  // the series are int32 and float32: 4-byte values
    const SeriesInfo lookback = lab_series("09-decoupled-lookback", "decoupled_lookback_scan", "09 decoupled look-back",
                                           "decoupled-lookback", "whole-array", Tuned::kThreads, Tuned::kTileSize);
    list.add(lookback, [](auto in, auto out, std::size_t n, auto op) {
        scan_with_kept_storage<TunedPolicy<std::remove_cv_t<std::remove_pointer_t<decltype(in)>>>>(in, out, n, op);
    });
    list.add(at_block_size(lookback, 128, SweepPolicy<128>::kTileSize),
             [](auto in, auto out, std::size_t n, auto op) { scan_with_kept_storage<SweepPolicy<128>>(in, out, n, op); });
    list.add(at_block_size(lookback, 256, SweepPolicy<256>::kTileSize),
             [](auto in, auto out, std::size_t n, auto op) { scan_with_kept_storage<SweepPolicy<256>>(in, out, n, op); });
    list.add(at_block_size(lookback, 1024, SweepPolicy<1024>::kTileSize),
             [](auto in, auto out, std::size_t n, auto op) { scan_with_kept_storage<SweepPolicy<1024>>(in, out, n, op); });
}
