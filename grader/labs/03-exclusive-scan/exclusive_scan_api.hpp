// Lab 03's host entries, as the suite calls them, what they promise, and the runs of the two
// whole-array conversions.
#pragma once

#include <cstddef>
#include <vector>

#include "scanlab/section_size.hpp"
#include "section_scan_checks.hpp"

template <class T, class Op>
void kogge_stone_exclusive_scan(const T* d_in, T* d_out, std::size_t n, unsigned section_size, Op op);
template <class T, class Op>
void inclusive_to_exclusive(const T* d_inclusive, T* d_exclusive, std::size_t n, Op op);
template <class T, class Op>
void exclusive_to_inclusive(const T* d_in, const T* d_exclusive, T* d_inclusive, std::size_t n, Op op);

// The conversion kernels launched by the suite itself on a grid of `blocks` x `threads`
// (instantiations.cu): the host entries reach a grid of fewer threads than elements only past
// kMaxConvertBlocks blocks (16.7 million elements), beyond the simulator's time for a test.
template <class T, class Op>
void inclusive_to_exclusive_on_grid(const T* d_inclusive, T* d_exclusive, std::size_t n, Op op, unsigned blocks,
                                    unsigned threads);
template <class T, class Op>
void exclusive_to_inclusive_on_grid(const T* d_in, const T* d_exclusive, T* d_inclusive, std::size_t n, Op op,
                                    unsigned blocks, unsigned threads);

namespace lab03 {

using namespace scanlab::grading;
using scanlab::ScanKind;

inline constexpr auto kExclusiveScan = [](auto in, auto out, std::size_t n, SectionShape shape, auto op) {
    kogge_stone_exclusive_scan(in, out, n, shape.threads, op);
};

// The same steps as the inclusive Kogge-Stone scan on a section shifted by one:
// S*log2(S) - (S-1) applications.
inline const SectionScanSpec kKoggeStoneExclusive{
    ScanKind::exclusive,
    shapes_with_elements_per_thread(1),
    [](SectionShape shape) { return scanlab::ceil_log2(shape.section_size()); },
    [](SectionShape shape) {
        const unsigned s = shape.section_size();
        return static_cast<unsigned long long>(s) * scanlab::ceil_log2(s) - (s - 1);
    },
};

// Whole-array sizes: empty, single, around one and several blocks of any reasonable size.
inline std::vector<std::size_t> conversion_sizes() { return {0, 1, 2, 7, 255, 256, 257, 1000, 4099}; }

// A grid of fewer threads than elements, as the host entries launch for more than
// kMaxConvertBlocks blocks' worth: 3 blocks of 64 threads, so that every thread has several
// elements, the last ones a partial round.
struct FewThreads {
    static constexpr unsigned kBlocks = 3;
    static constexpr unsigned kThreads = 64;
};
inline std::vector<std::size_t> few_threads_sizes() { return {FewThreads::kBlocks * FewThreads::kThreads + 1, 1000, 4099}; }

enum class Conversion { inclusive_to_exclusive, exclusive_to_inclusive };

// A conversion run: the scan it starts from (the reference's, uploaded) and what it must
// produce. Going back to inclusive combines each element once more: depth 1.
template <class Case>
class ConversionRun {
public:
    using T = typename Case::T;
    using Op = typename Case::Op;

    // `kernel_only`: the kernel alone on a grid of FewThreads, not the host entry.
    ConversionRun(Conversion conversion, std::size_t n, bool kernel_only = false)
        : conversion_(conversion),
          kernel_only_(kernel_only),
          run_(Space::device, n, n),
          source_(Space::device, scanlab::reference_scan(source_kind(), run_.input().data(), n, Op{})) {}

    // Calls the conversion with `op` (the case's operator or a counting wrapper of it).
    template <class AnyOp>
    ::testing::AssertionResult call(AnyOp op) const {
        return run_.call([&] {
            constexpr unsigned blocks = FewThreads::kBlocks, threads = FewThreads::kThreads;
            if (conversion_ == Conversion::inclusive_to_exclusive && kernel_only_) {
                inclusive_to_exclusive_on_grid(source_.data(), run_.out(), run_.size(), op, blocks, threads);
            } else if (conversion_ == Conversion::inclusive_to_exclusive) {
                inclusive_to_exclusive(source_.data(), run_.out(), run_.size(), op);
            } else if (kernel_only_) {
                exclusive_to_inclusive_on_grid(run_.in(), source_.data(), run_.out(), run_.size(), op, blocks, threads);
            } else {
                exclusive_to_inclusive(run_.in(), source_.data(), run_.out(), run_.size(), op);
            }
        });
    }

    ::testing::AssertionResult output_matches() const {
        const unsigned depth = conversion_ == Conversion::inclusive_to_exclusive ? 0 : 1;
        return run_.output_matches(target_kind(), scanlab::kWholeArray, depth);
    }

    ::testing::AssertionResult output_written() const { return run_.output_written(); }

    ::testing::AssertionResult inputs_unmodified() const {
        if (auto input = run_.input_unmodified(); !input) return input;
        const std::vector<T> original = scanlab::reference_scan(source_kind(), run_.input().data(), run_.size(), Op{});
        auto result = matches_reference(original, source_.read());
        if (!result) result << " (the conversion modified the scan it was given)";
        return result;
    }

private:
    ScanKind source_kind() const {
        return conversion_ == Conversion::inclusive_to_exclusive ? ScanKind::inclusive : ScanKind::exclusive;
    }
    ScanKind target_kind() const {
        return conversion_ == Conversion::inclusive_to_exclusive ? ScanKind::exclusive : ScanKind::inclusive;
    }

    Conversion conversion_;
    bool kernel_only_;
    ScanRun<Case> run_;
    TestArray<T> source_;
};

inline std::string describe_conversion(std::size_t n) { return "n = " + std::to_string(n); }
inline std::string describe_few_threads(std::size_t n) {
    return "the kernel alone, n = " + std::to_string(n) + " on " + std::to_string(FewThreads::kBlocks) + " blocks of " +
           std::to_string(FewThreads::kThreads) + " threads";
}

}  // namespace lab03
